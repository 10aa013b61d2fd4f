import { messages } from '@vez/contract';

/**
 * The contract's validation messages (English, verbatim from the spec) mapped to catalogue keys,
 * so form and server errors show in the diner's language.
 */
const keys: Record<string, string> = {
  [messages.surname]: 'validation.surname',
  [messages.phone]: 'validation.phone',
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

/** Server field paths (`customer.phone`) to form fields. */
export const serverFieldToFormField: Record<string, 'name' | 'phone' | 'email' | 'note' | 'section' | 'partySize'> = {
  'customer.name': 'name',
  'customer.phone': 'phone',
  'customer.email': 'email',
  note: 'note',
  section: 'section',
  partySize: 'partySize',
};
