import { messages } from '@vez/contract';

/**
 * The contract's validation messages (English, verbatim from packages/contract) mapped to catalogue keys,
 * so form and server errors show in the diner's language.
 */
const keys: Record<string, string> = {
  [messages.surname]: 'validation.surname',
  [messages.phone]: 'validation.phone',
  [messages.mobile]: 'validation.mobile',
  [messages.email]: 'validation.email',
  [messages.section]: 'validation.required',
  [messages.partySize]: 'validation.partySize',
  [messages.note]: 'validation.note',
};

export function validationKey(message: string | undefined): string | undefined {
  if (!message) return undefined;
  // A server refusal the form set with its catalogue key already (the phone's country).
  if (message.startsWith('validation.')) return message;
  return keys[message] ?? 'validation.required';
}

type ServerField = 'name' | 'phone' | 'email' | 'note' | 'section' | 'partySize';

/** Server field paths (`customer.phone`) to form fields. */
export const serverFieldToFormField: Record<string, ServerField> = {
  'customer.name': 'name',
  'customer.phone': 'phone',
  'customer.email': 'email',
  note: 'note',
  section: 'section',
  partySize: 'partySize',
};

/** A field's own text, for a server refusal whose message is not the contract's (a venue's own limit). */
const fieldKeys: Record<ServerField, string> = {
  name: 'validation.surname',
  phone: 'validation.phone',
  email: 'validation.email',
  note: 'validation.note',
  section: 'validation.required',
  partySize: 'validation.partySize',
};

/** The catalogue key of a server's refusal at a form field (docs/product.md §15). */
export function serverErrorKey(field: ServerField, message: string): string {
  return keys[message] ?? fieldKeys[field];
}
