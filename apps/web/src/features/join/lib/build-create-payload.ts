import {
  CREATE_DATA_ORIGIN,
  type CreateWaitlistBody,
  type Language,
  ORIGIN_LABEL_WIDGET,
  type VenueSettings,
  phoneDigits,
} from '@vez/contract';
import { composeNote } from './compose-note';
import type { JoinFormValues } from './join-form-schema';

/**
 * docs/product.md §15: the full name is split at spaces; the last word is the last name, the rest the
 * first name. A single word has no surname: undefined.
 */
export function splitName(fullName: string): { firstName: string; lastName: string } | undefined {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return undefined;
  const lastName = words.pop() as string;
  return { firstName: words.join(' '), lastName };
}

export class FullNameMissingError extends Error {
  constructor() {
    super('Por favor, informe seu nome completo.');
    this.name = 'FullNameMissingError';
  }
}

/** The create payload of docs/product.md §13, exactly; plus the diner's language. */
export function buildCreatePayload(
  values: JoinFormValues,
  venue: { venueId: string; settings: Pick<VenueSettings, 'sectionMode' | 'noteMode'>; channel?: 'sms' | 'whatsapp' },
  lang: Language,
): CreateWaitlistBody {
  const name = splitName(values.name);
  if (!name) throw new FullNameMissingError();
  return {
    customer: {
      name: `${name.firstName} ${name.lastName}`,
      phone: `+${phoneDigits(values.phone)}`,
      email: values.email.trim(),
    },
    venue: venue.venueId,
    origin: { label: ORIGIN_LABEL_WIDGET },
    partySize: Number(values.partySize),
    benefits: '',
    logs: { actionType: 'Add' },
    data: { origin: CREATE_DATA_ORIGIN },
    sendSms: true,
    note: composeNote(values, venue.settings),
    lang,
    // Only a ticked box at a WhatsApp venue: without consent the party gets SMS (docs/product.md §10).
    ...(venue.channel === 'whatsapp' && values.whatsappOptIn ? { whatsappOptIn: true } : {}),
  };
}
