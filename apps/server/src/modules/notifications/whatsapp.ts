import type { Language, MessageKind, TemplateValues } from '@vez/contract';
import type { WhatsAppTemplates } from '../../config.js';
import type { EntryRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';

/**
 * WhatsApp's rules (docs/product.md §10, docs/decisions/029-whatsapp-templates.md), in one place:
 * who gets WhatsApp, which template a message the venue starts goes as, when free text may go.
 */

/** The customer-service window: free text goes only this long after the party's last inbound WhatsApp message. */
export const WHATSAPP_WINDOW_MS = 24 * 3_600_000;

/** Twilio caps each template variable at this many characters. */
const VARIABLE_MAX = 255;

/** A party gets WhatsApp only when the venue's channel is WhatsApp and it said yes on the form. */
export const isWhatsAppParty = (venue: Venue, entry: Pick<EntryRow, 'whatsapp_opt_in'>): boolean =>
  venue.settings.channel === 'whatsapp' && entry.whatsapp_opt_in === 1;

/** Whether the party wrote to the venue on WhatsApp within the last 24 hours. */
export const isWindowOpen = (entry: Pick<EntryRow, 'whatsapp_inbound_at'>, now: number): boolean =>
  entry.whatsapp_inbound_at !== null && now - Number(entry.whatsapp_inbound_at) < WHATSAPP_WINDOW_MS;

export interface TemplateSend {
  contentSid: string;
  /** A JSON string, `{"1": …, "2": …}`: the template's numbered slots filled in order. */
  contentVariables: string;
}

/**
 * The approved template of this kind and language with its slots filled, or undefined when the
 * operator configured none (the message then goes by SMS).
 */
export function templateSend(
  templates: WhatsAppTemplates,
  kind: MessageKind,
  lang: Language,
  values: TemplateValues,
): TemplateSend | undefined {
  const template = templates[kind]?.[lang];
  if (!template) return undefined;
  const slots = Object.fromEntries(
    template.vars.map((name, i) => [
      String(i + 1),
      Array.from(String(values[name] ?? ''))
        .slice(0, VARIABLE_MAX)
        .join(''),
    ]),
  );
  return { contentSid: template.sid, contentVariables: JSON.stringify(slots) };
}

/**
 * Twilio's answers that mean WhatsApp will not reach this party, so the message goes once by SMS:
 * 63016 free text outside the window, 63003 no WhatsApp at the number, 63024 an invalid recipient,
 * 21408 no permission for the region; and any other refusal of a WhatsApp message (a 4xx).
 */
export const WHATSAPP_REFUSALS: readonly number[] = [63016, 63003, 63024, 21408];
