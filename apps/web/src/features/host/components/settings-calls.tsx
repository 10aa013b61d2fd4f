import type { VenueSettings } from '@vez/contract';
import { NUMBER_FIELDS, type SettingsDraft } from '../lib/settings-draft';
import { useHostT } from '../lib/host-i18n';
import { useFieldFault } from './settings-fault';
import type { DraftUpdate } from './settings-screen';

/**
 * A whole-number setting as typed: kept as text, checked against its limits on save (never clamped,
 * empty is not zero: docs/decisions/032-the-door-on-a-busy-night.md).
 */
function NumberSetting({
  name,
  draft,
  update,
}: {
  name: 'holdMinutes' | 'gettingCloseAt' | 'gettingCloseMinutes';
  draft: SettingsDraft;
  update: DraftUpdate;
}) {
  const { t } = useHostT();
  const { field, limits } = NUMBER_FIELDS[name];
  const fault = useFieldFault(field, `${name}-hint`);
  return (
    <label className="host-field">
      <span>{t(`settings.${name}`)}</span>
      <input
        type="text"
        inputMode="numeric"
        value={draft.numbers[name]}
        onChange={(e) => update((d) => ({ ...d, numbers: { ...d.numbers, [name]: e.target.value } }))}
        {...fault.input}
      />
      {fault.message}
      <small id={`${name}-hint`}>{t(`settings.${name}Hint`, limits)}</small>
    </label>
  );
}

/** Calls that end well (docs/product.md §8): the hold window, no-shows, getting close, seated, the channel, SMS sem acentos. */
export function SettingsCalls({ draft, update }: { draft: SettingsDraft; update: DraftUpdate }) {
  const { t } = useHostT();
  const set = <K extends keyof VenueSettings>(key: K, value: VenueSettings[K]) =>
    update((d) => ({ ...d, settings: { ...d.settings, [key]: value } }));
  return (
    <fieldset className="host-group">
      <legend>{t('settings.calls')}</legend>
      <div className="host-grid">
        <NumberSetting name="holdMinutes" draft={draft} update={update} />
        <NumberSetting name="gettingCloseAt" draft={draft} update={update} />
        <NumberSetting name="gettingCloseMinutes" draft={draft} update={update} />
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
