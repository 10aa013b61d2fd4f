/**
 * Plain values with no schema library behind them: the browser bundles them without zod
 * (package.json `sideEffects: false` lets the bundler skip the schema files a page does not use).
 */
import { NOTE_MAX_LENGTH } from './constants.js';

export const messages = {
  surname: 'Insert Surname',
  /** A walk-in's name (docs/product.md §6): one word is enough at the door. */
  name: 'Insert a name',
  phone: 'Invalid phone number',
  /** A Brazilian landline (docs/product.md §15): no SMS, no WhatsApp. */
  mobile: 'Use a mobile number',
  email: 'Invalid email',
  emailRequired: 'Invalid email',
  partySize: 'Party size is required',
  note: `At most ${NOTE_MAX_LENGTH} characters`,
  section: 'Required',
} as const;
