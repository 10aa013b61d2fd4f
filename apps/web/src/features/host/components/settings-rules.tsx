import type { VenueSettings } from '@vez/contract';
import type { SettingsDraft } from '../lib/settings-draft';
import { useHostT } from '../lib/host-i18n';
import { useFieldFault } from './settings-fault';
import type { DraftUpdate } from './settings-screen';

const FLAGS = ['hidePriorityDisclaimer', 'emailRequired', 'hideReceptionistHint', 'hidePosition', 'showWaitBeforeJoin'] as const;
const CHOICES = {
  sectionMode: ['none', 'required'],
  noteMode: ['note', 'unit', 'locationAndCompany'],
  operationMode: ['basic', 'advanced'],
} as const;

/** The per-venue rules of docs/product.md §2: no venue is hard-coded. */
export function SettingsRules({ draft, update }: { draft: SettingsDraft; update: DraftUpdate }) {
  const { t } = useHostT();
  const set = <K extends keyof VenueSettings>(key: K, value: VenueSettings[K]) =>
    update((d) => ({ ...d, settings: { ...d.settings, [key]: value } }));
  const maxWaitingFault = useFieldFault('settings.maxWaitingParties', 'max-waiting-hint');
  const countriesFault = useFieldFault('settings.smsCountries', 'sms-countries-hint');
  const wordingFault = useFieldFault('settings.wording', 'wording-hint');
  return (
    <fieldset className="host-group">
      <legend>{t('settings.rules')}</legend>
      <div className="host-grid">
        {(Object.keys(CHOICES) as (keyof typeof CHOICES)[]).map((key) => (
          <label key={key} className="host-field">
            <span>{t(`settings.${key}`)}</span>
            <select value={draft.settings[key]} onChange={(e) => set(key, e.target.value as never)}>
              {CHOICES[key].map((option) => (
                <option key={option} value={option}>
                  {t(`settings.${key}_${option}`)}
                </option>
              ))}
            </select>
          </label>
        ))}
        {FLAGS.map((key) => (
          <label key={key} className="host-check">
            <input type="checkbox" checked={draft.settings[key]} onChange={(e) => set(key, e.target.checked)} />
            <span>{t(`settings.${key}`)}</span>
          </label>
        ))}
        <label className="host-check">
          <input type="checkbox" checked={draft.loginJourney} onChange={(e) => update((d) => ({ ...d, loginJourney: e.target.checked }))} />
          <span>{t('settings.loginJourney')}</span>
        </label>
        <label className="host-check">
          <input type="checkbox" checked={draft.hasMenu} onChange={(e) => update((d) => ({ ...d, hasMenu: e.target.checked }))} />
          <span>{t('settings.hasMenu')}</span>
        </label>
        <label className="host-field">
          <span>{t('settings.menuUrl')}</span>
          <input type="text" inputMode="url" value={draft.settings.menuUrl ?? ''} onChange={(e) => set('menuUrl', e.target.value)} />
        </label>
        <label className="host-field">
          <span>{t('settings.reservationUrl')}</span>
          <input
            type="text"
            inputMode="url"
            value={draft.settings.reservationUrl ?? ''}
            onChange={(e) => set('reservationUrl', e.target.value)}
            aria-describedby="reservation-hint"
          />
          <small id="reservation-hint">{t('settings.reservationHint')}</small>
        </label>
        <label className="host-field">
          <span>{t('settings.maxWaitingParties')}</span>
          <input
            type="text"
            inputMode="numeric"
            value={draft.maxWaitingText}
            onChange={(e) => update((d) => ({ ...d, maxWaitingText: e.target.value }))}
            {...maxWaitingFault.input}
          />
          {maxWaitingFault.message}
          <small id="max-waiting-hint">{t('settings.maxWaitingHint')}</small>
        </label>
        <label className="host-field">
          <span>{t('settings.smsCountries')}</span>
          <input
            type="text"
            autoCapitalize="characters"
            spellCheck={false}
            value={draft.smsCountriesText}
            onChange={(e) => update((d) => ({ ...d, smsCountriesText: e.target.value }))}
            {...countriesFault.input}
          />
          {countriesFault.message}
          <small id="sms-countries-hint">{t('settings.smsCountriesHint')}</small>
        </label>
        <label className="host-field host-field--wide">
          <span>{t('settings.wording')}</span>
          <textarea
            rows={4}
            spellCheck={false}
            value={draft.wordingText}
            placeholder='{"pt": {"key": "texto"}, "en": {"key": "text"}}'
            onChange={(e) => update((d) => ({ ...d, wordingText: e.target.value }))}
            {...wordingFault.input}
          />
          {wordingFault.message}
          <small id="wording-hint">{t('settings.wordingHint')}</small>
        </label>
      </div>
    </fieldset>
  );
}
