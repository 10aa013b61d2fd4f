import {
  ErrorCode,
  type Language,
  type MessageKind,
  SMS_MAX_SEGMENTS,
  TEMPLATE_NAME_MAX_LENGTH,
  type TemplateValues,
  type VenueSettings,
  builtInTemplate,
  renderTemplate,
  smsSegments,
  toGsm7,
} from '@vez/contract';
import { AppError } from '../../lib/app-error.js';
import type { Venue } from '../venues/venue.js';

/** What the diner reads in SMS and email, per language (pt is the default and fallback). */
export function venueNameIn(venue: Venue, lang: string): string {
  return (lang === 'en' ? venue.name.en : undefined) ?? venue.name.pt;
}

/**
 * A text as it goes to this address: an SMS in GSM-7, accents dropped, when the venue asks for it
 * ("SMS sem acentos", on by default: docs/product.md §8), so Portuguese costs 160 characters a
 * segment instead of 70. A WhatsApp address (`whatsapp:`) gets the text as written, as do push,
 * email and the pages, which never pass through here.
 */
export function smsTextFor(settings: Pick<VenueSettings, 'smsWithoutAccents'>, address: string, text: string): string {
  return settings.smsWithoutAccents && !address.startsWith('whatsapp:') ? toGsm7(text) : text;
}

export const langOf = (value: string | null | undefined): Language => (value === 'en' ? 'en' : 'pt');

/**
 * A message of one kind (docs/product.md §8) in the party's language: the venue's own text if it
 * wrote one, else the built-in text; variables filled. `{position}` and `{minutes}` are filled
 * where the sender knows them (the getting-close message knows the place).
 *
 * The venue's own text is checked at save with its longest values (host-settings.service.ts), yet a
 * later change (the venue's name, PUBLIC_BASE_URL) can still take it past SMS_MAX_SEGMENTS
 * (docs/security.md, segment cap). A call, which staff send, is then refused naming the text
 * (`refuse`); a message the server sends by itself (join, getting close, seated, no-show) goes with
 * the built-in text instead, so no diner's join fails over the venue's wording.
 */
export function venueText(
  kind: MessageKind,
  venue: Venue,
  lang: Language,
  values: TemplateValues,
  tooLong: 'refuse' | 'builtIn' = 'builtIn',
): string {
  const { settings } = venue;
  const filled = { venue: venueNameIn(venue, lang), hold: settings.holdMinutes, ...values };
  const own = settings.messageTemplates[kind]?.[lang];
  if (own !== undefined) {
    const text = renderTemplate(own, filled);
    // Counted as the SMS goes: without accents when the venue writes them so (smsTextFor).
    const { segments } = smsSegments(settings.smsWithoutAccents ? toGsm7(text) : text);
    if (segments <= SMS_MAX_SEGMENTS) return text;
    if (tooLong === 'refuse') {
      throw new AppError(
        ErrorCode.MESSAGE_TOO_LONG,
        `This message would cost ${segments} SMS, more than ${SMS_MAX_SEGMENTS}: shorten the venue's text.`,
        `settings.messageTemplates.${kind}.${lang}`,
      );
    }
  }
  const builtIn = builtInTemplate(kind, lang, { hideReceptionistHint: settings.hideReceptionistHint, holdMinutes: settings.holdMinutes });
  return renderTemplate(builtIn, filled);
}

/** The first name of a party, for `{name}`: at most TEMPLATE_NAME_MAX_LENGTH characters (its longest value). */
export const firstNameOf = (name: string | null): string =>
  Array.from((name ?? '').trim().split(/\s+/)[0] ?? '')
    .slice(0, TEMPLATE_NAME_MAX_LENGTH)
    .join('');

/**
 * A message from staff to the party, by SMS: the venue's name first, so the party knows who writes.
 * Past SMS_MAX_SEGMENTS it is refused, naming the text (docs/security.md, segment cap); counted as
 * it goes, without accents when the venue writes its SMS so.
 */
export function staffSms(venueName: string, text: string, withoutAccents = false): string {
  const sms = `${venueName}: ${text}`;
  const { segments } = smsSegments(withoutAccents ? toGsm7(sms) : sms);
  if (segments > SMS_MAX_SEGMENTS) {
    throw new AppError(
      ErrorCode.MESSAGE_TOO_LONG,
      `This message would cost ${segments} SMS with the venue's name, more than ${SMS_MAX_SEGMENTS}: shorten it.`,
      'text',
    );
  }
  return sms;
}

// The answers to a reply and the code message live with the other texts, in the contract
// (packages/contract/src/message-texts.ts): one home for every message text.
