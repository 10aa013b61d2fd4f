import { VENUE_NAME_LANGUAGES } from '@vez/contract';
import { NUMBER_FIELDS, type SettingsDraft } from '../lib/settings-draft';
import { useHostT } from '../lib/host-i18n';
import { useFieldFault } from './settings-fault';
import type { DraftUpdate } from './settings-screen';

/** Names per language, address, largest party and sections. */
export function SettingsIdentity({ draft, update }: { draft: SettingsDraft; update: DraftUpdate }) {
  const { t } = useHostT();
  const partySizeFault = useFieldFault('maxPartySize', 'max-party-size-hint');
  return (
    <fieldset className="host-group">
      <legend>{t('settings.venue')}</legend>
      <div className="host-grid">
        {VENUE_NAME_LANGUAGES.map((lang) => (
          <label key={lang} className="host-field">
            <span>{t('settings.nameIn', { lang: t(`lang.${lang}`) })}</span>
            <input
              required={lang === 'pt'}
              maxLength={120}
              value={draft.name[lang] ?? ''}
              onChange={(e) => update((d) => ({ ...d, name: { ...d.name, [lang]: e.target.value } }))}
            />
          </label>
        ))}
        <label className="host-field">
          <span>{t('settings.city')}</span>
          <input
            maxLength={120}
            value={draft.address.city}
            onChange={(e) => update((d) => ({ ...d, address: { ...d.address, city: e.target.value } }))}
          />
        </label>
        <label className="host-field">
          <span>{t('settings.neighborhood')}</span>
          <input
            maxLength={120}
            value={draft.address.neighborhood}
            onChange={(e) => update((d) => ({ ...d, address: { ...d.address, neighborhood: e.target.value } }))}
          />
        </label>
        <label className="host-field">
          <span>{t('settings.maxPartySize')}</span>
          <input
            type="text"
            inputMode="numeric"
            value={draft.numbers.maxPartySize}
            onChange={(e) => update((d) => ({ ...d, numbers: { ...d.numbers, maxPartySize: e.target.value } }))}
            {...partySizeFault.input}
          />
          {partySizeFault.message}
          <small id="max-party-size-hint">{t('settings.maxPartySizeHint', NUMBER_FIELDS.maxPartySize.limits)}</small>
        </label>
        <label className="host-field">
          <span>{t('settings.sections')}</span>
          <textarea
            rows={3}
            value={draft.sectionsText}
            onChange={(e) => update((d) => ({ ...d, sectionsText: e.target.value }))}
            aria-describedby="sections-hint"
          />
          <small id="sections-hint">{t('settings.sectionsHint')}</small>
        </label>
      </div>
    </fieldset>
  );
}
