import {
  Email,
  FullName,
  NOTE_MAX_LENGTH,
  type PhoneProblem,
  type VenueSettings,
  isPlausiblePhone,
  messages,
  phoneDigits,
} from '@vez/contract';
import * as z from 'zod/mini';
import { composeNote } from './compose-note';

/** The join form's values; every field is a string as the inputs hold it. */
export interface JoinFormValues {
  partySize: string;
  name: string;
  /** `+<country code> <national number as formatted>` */
  phone: string;
  email: string;
  note: string;
  location: string;
  company: string;
  section: string;
  /** The unticked "updates by WhatsApp" box of a WhatsApp venue (docs/product.md §10). */
  whatsappOptIn: boolean;
}

export const emptyJoinForm: JoinFormValues = {
  partySize: '',
  name: '',
  phone: '',
  email: '',
  note: '',
  location: '',
  company: '',
  section: '',
  whatsappOptIn: false,
};

export interface JoinRules {
  maxPartySize: number;
  sections: readonly string[];
  settings: Pick<VenueSettings, 'emailRequired' | 'sectionMode' | 'noteMode'>;
}

const required = z.string().check(z.refine((v) => v.trim().length > 0, { error: messages.section }));

/** National digits: what follows the country code (docs/product.md §15: at least 9 digits). */
export function nationalDigits(phone: string): string {
  const match = /^\+(\d{1,4})\s(.*)$/.exec(phone.trim());
  return phoneDigits(match ? (match[2] ?? '') : phone);
}

/** What is wrong with a phone as the form holds it (`+55 (11) 98765-4321`), if anything. */
export type PhoneRule = (phone: string) => PhoneProblem | undefined;

/**
 * Until the contract's phone reading has loaded with the personal-data block (it carries the phone
 * metadata, kept off the join page's first load): the phone is plausible, or it is invalid. The
 * phone field is not shown before then, and the server reads the phone again.
 */
const plausiblePhone: PhoneRule = (v) => (isPlausiblePhone(v) && nationalDigits(v).length >= 9 ? undefined : 'invalid');

/**
 * The validation rules of docs/product.md §15 for one venue's settings (docs/product.md §2). `phoneRule`
 * is the contract's `phoneProblem` once loaded (lib/phone-rule.ts): a valid number, in Brazil a mobile.
 */
export function joinFormSchema(rules: JoinRules, phoneRule: PhoneRule = plausiblePhone) {
  const { settings, sections, maxPartySize } = rules;
  return z
    .object({
      partySize: z.string().check(
        z.refine(
          (v) => {
            const n = Number(v);
            return v !== '' && Number.isInteger(n) && n >= 1 && n <= maxPartySize;
          },
          { error: messages.partySize },
        ),
      ),
      name: FullName,
      phone: z.string().check(
        z.refine((v) => phoneRule(v) !== 'invalid', { error: messages.phone }),
        z.refine((v) => phoneRule(v) !== 'landline', { error: messages.mobile }),
      ),
      email: settings.emailRequired ? Email : z.union([z.literal(''), Email]),
      note: settings.noteMode === 'unit' ? required.check(z.maxLength(NOTE_MAX_LENGTH, { error: messages.note })) : z.string(),
      location: settings.noteMode === 'locationAndCompany' ? required : z.string(),
      company: z.string(),
      whatsappOptIn: z.boolean(),
      section:
        settings.sectionMode === 'required'
          ? z.string().check(z.refine((v) => sections.includes(v), { error: messages.section }))
          : z.string(),
    })
    .check(
      // The note the server receives (prefix, location and company included) is at most 255.
      z.refine((values) => composeNote(values, settings).length <= NOTE_MAX_LENGTH, {
        error: messages.note,
        path: ['note'],
      }),
    );
}
