import { GETTING_CLOSE_MINUTES_MAX, GETTING_CLOSE_MINUTES_MIN, type VenueSettings } from '@vez/contract';
import type { SettingsDraft } from '../lib/settings-draft';
import { useHostT } from '../lib/host-i18n';
import type { DraftUpdate } from './settings-screen';

/** Calls that end well (docs/product.md §8): the hold window, no-shows, getting close, seated, the channel, SMS sem acentos. */
export function SettingsCalls({ draft, update }: { draft: SettingsDraft; update: DraftUpdate }) {
  const { t } = useHostT();
  const set = <K extends keyof VenueSettings>(key: K, value: VenueSettings[K]) =>
    update((d) => ({ ...d, settings: { ...d.settings, [key]: value } }));
  const number = (key: 'holdMinutes' | 'gettingCloseAt' | 'gettingCloseMinutes', max: number, min = 0) => (
    <label className="host-field">
      <span>{t(`settings.${key}`)}</span>
      <input
        type="number"
        min={min}
        max={max}
        value={draft.settings[key]}
        onChange={(e) => set(key, Math.max(min, Math.min(max, Math.round(Number(e.target.value) || 0))))}
        aria-describedby={`${key}-hint`}
      />
      <small id={`${key}-hint`}>{t(`settings.${key}Hint`)}</small>
    </label>
  );
  return (
    <fieldset className="host-group">
      <legend>{t('settings.calls')}</legend>
      <div className="host-grid">
        {number('holdMinutes', 120)}
        {number('gettingCloseAt', 50)}
        {number('gettingCloseMinutes', GETTING_CLOSE_MINUTES_MAX, GETTING_CLOSE_MINUTES_MIN)}
        <label className="host-check">
          <input type="checkbox" checked={draft.settings.autoNoShow} onChange={(e) => set('autoNoShow', e.target.checked)} />
          <span>{t('settings.autoNoShow')}</span>
        </label>
        <label className="host-check">
          <input type="checkbox" checked={draft.settings.seatedMessage} onChange={(e) => set('seatedMessage', e.target.checked)} />
          <span>{t('settings.seatedMessage')}</span>
        </label>
        <div>
          <label className="host-check">
            <input
              type="checkbox"
              checked={draft.settings.smsWithoutAccents}
              onChange={(e) => set('smsWithoutAccents', e.target.checked)}
              aria-describedby="smsWithoutAccents-hint"
            />
            <span>{t('settings.smsWithoutAccents')}</span>
          </label>
          <small id="smsWithoutAccents-hint" className="host-hint">
            {t('settings.smsWithoutAccentsHint')}
          </small>
        </div>
        <label className="host-field">
          <span>{t('settings.channel')}</span>
          <select
            value={draft.settings.channel}
            onChange={(e) => set('channel', e.target.value as VenueSettings['channel'])}
            aria-describedby="settings-channel-hint"
          >
            <option value="sms">{t('settings.channel_sms')}</option>
            <option value="whatsapp">{t('settings.channel_whatsapp')}</option>
          </select>
          <small id="settings-channel-hint">{t('settings.channelHint')}</small>
        </label>
      </div>
    </fieldset>
  );
}
