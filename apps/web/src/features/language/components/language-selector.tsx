import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/lazy-modal';
import { currentLanguage } from '../../../lib/i18n';
import { languageOption, languageOptions } from '../lib/languages';
import './language-selector.css';

/** The language button of the venue header and its selection modal (docs/product.md §12). */
export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const current = languageOption(currentLanguage(i18n.language));
  return (
    <>
      <button
        type="button"
        className="language-button"
        aria-label={t('language.button', { name: current.name })}
        onClick={() => setOpen(true)}
      >
        <span aria-hidden="true">{current.flag}</span>
        <span aria-hidden="true">{current.code.toUpperCase()}</span>
      </button>
      <Modal open={open} type="noIcon" title={t('language.title')} closeLabel={t('common.close')} onClose={() => setOpen(false)}>
        <ul className="language-list">
          {languageOptions.map((option) => (
            <li key={option.code}>
              <button
                type="button"
                lang={option.code === 'en' ? 'en-US' : 'pt-BR'}
                className="language-list__item"
                aria-current={option.code === current.code ? 'true' : undefined}
                autoFocus={option.code === current.code}
                data-country={option.countryCode}
                onClick={() => {
                  void i18n.changeLanguage(option.code);
                  setOpen(false);
                }}
              >
                <span className="language-list__flag" aria-hidden="true">
                  {option.flag}
                </span>
                <span>{option.fullName}</span>
              </button>
            </li>
          ))}
        </ul>
      </Modal>
    </>
  );
}
