import { currentLanguage } from '../../../lib/i18n';
import { useHostT } from '../lib/host-i18n';

/** pt ⇄ en for the console (the choice is shared with the diner pages of this browser). */
export function LanguageToggle() {
  const { t, i18n } = useHostT();
  const next = currentLanguage(i18n.language) === 'pt' ? 'en' : 'pt';
  return (
    <button type="button" className="host-chip" lang={next} onClick={() => void i18n.changeLanguage(next)}>
      {t('language.switch')}
    </button>
  );
}
