import {
  MESSAGE_KINDS,
  type MessageKind,
  TEMPLATE_MAX_LENGTH,
  TEMPLATE_VARIABLES,
  SMS_MAX_SEGMENTS,
  builtInTemplate,
  linkHostOf,
  renderTemplate,
  smsSegments,
  templateProblem,
  toGsm7,
} from '@vez/contract';
import { useId, useState } from 'react';
import type { SettingsDraft } from '../lib/settings-draft';
import { useHostT } from '../lib/host-i18n';
import type { DraftUpdate } from './settings-screen';

/**
 * The venue's message texts (docs/product.md §8): one per kind and language, the built-in text
 * until staff write their own, a live preview with sample values and the SMS segment count.
 */
export function SettingsMessages({
  draft,
  update,
  reservationUrl,
}: {
  draft: SettingsDraft;
  update: DraftUpdate;
  reservationUrl?: string;
}) {
  const { t } = useHostT();
  const [kind, setKind] = useState<MessageKind>('join');
  const [lang, setLang] = useState<'pt' | 'en'>('pt');
  const ids = useId();
  const { settings } = draft;
  const own = settings.messageTemplates[kind]?.[lang];
  const builtIn = builtInTemplate(kind, lang, { hideReceptionistHint: settings.hideReceptionistHint, holdMinutes: settings.holdMinutes });
  const text = own ?? builtIn;
  const setText = (value: string | undefined) =>
    update((d) => {
      const byLang = { ...d.settings.messageTemplates[kind] };
      if (value === undefined) delete byLang[lang];
      else byLang[lang] = value;
      const templates = { ...d.settings.messageTemplates, [kind]: byLang };
      if (Object.keys(byLang).length === 0) delete templates[kind];
      return { ...d, settings: { ...d.settings, messageTemplates: templates } };
    });
  const venueName = (lang === 'en' && draft.name.en) || draft.name.pt;
  const written = renderTemplate(text, {
    venue: venueName,
    name: 'Ana',
    link: `${window.location.origin}/waitlist/Xk3pQ9rT2vLm8nB4cD6fGh`,
    position: 3,
    minutes: 15,
    hold: settings.holdMinutes,
  });
  // The SMS as the server sends it: without accents when the venue asks (docs/product.md §8), so the
  // count is what the SMS costs. WhatsApp would take the text as written.
  const withoutAccents = settings.smsWithoutAccents && settings.channel === 'sms';
  const preview = withoutAccents ? toGsm7(written) : written;
  const cost = smsSegments(preview);
  const missingLink = kind === 'join' && !text.includes('{link}');
  // The server's own check at save (docs/security.md, segment cap and template links), run as staff type.
  const allowedHosts = [window.location.origin, settings.menuUrl, settings.reservationUrl ?? reservationUrl]
    .map(linkHostOf)
    .filter((host): host is string => host !== undefined);
  const problem =
    own === undefined
      ? undefined
      : templateProblem(kind, own, {
          venueName,
          publicBaseUrl: window.location.origin,
          holdMinutes: settings.holdMinutes,
          withoutAccents: settings.smsWithoutAccents,
          allowedHosts,
        });

  return (
    <fieldset className="host-group">
      <legend>{t('messages.legend')}</legend>
      <div className="host-grid">
        <label className="host-field">
          <span>{t('messages.kind')}</span>
          <select value={kind} onChange={(e) => setKind(e.target.value as MessageKind)}>
            {MESSAGE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`messages.kind_${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="host-field">
          <span>{t('messages.language')}</span>
          <select value={lang} onChange={(e) => setLang(e.target.value as 'pt' | 'en')}>
            <option value="pt">{t('lang.pt')}</option>
            <option value="en">{t('lang.en')}</option>
          </select>
        </label>
      </div>
      <label className="host-field">
        <span>{t('messages.text')}</span>
        <textarea
          rows={4}
          maxLength={TEMPLATE_MAX_LENGTH}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={`${ids}-vars ${ids}-state`}
          aria-invalid={missingLink || undefined}
        />
      </label>
      <p id={`${ids}-vars`} className="host-hint">
        {t('messages.variables')} {TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}
      </p>
      <p id={`${ids}-state`} className="host-hint">
        {own === undefined ? t('messages.builtIn') : t('messages.own')}{' '}
        {own !== undefined && (
          <button type="button" className="host-chip" onClick={() => setText(undefined)}>
            {t('messages.useBuiltIn')}
          </button>
        )}
      </p>
      {missingLink && (
        <p role="alert" className="host-error">
          {t('messages.needsLink')}
        </p>
      )}
      {problem && (
        <p role="alert" className="host-error">
          {problem.kind === 'link'
            ? t('messages.foreignLink', { link: problem.link })
            : t('messages.tooLong', { count: problem.segments, max: SMS_MAX_SEGMENTS })}
        </p>
      )}
      <div className="host-preview" aria-labelledby={`${ids}-preview`}>
        <p id={`${ids}-preview`} className="host-preview__label">
          {t('messages.preview')}
        </p>
        <p className="host-preview__text" data-testid="message-preview">
          {preview}
        </p>
        {withoutAccents && preview !== written && <p className="host-hint">{t('messages.withoutAccents')}</p>}
        <p className="host-hint" data-testid="message-segments">
          {t('messages.segments', { count: cost.segments, encoding: cost.encoding, units: cost.units, per: cost.perSegment })}
        </p>
      </div>
    </fieldset>
  );
}
