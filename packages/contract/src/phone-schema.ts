import * as z from 'zod/mini';
import { messages } from './messages.js';
import { phoneProblem } from './phone.js';

/**
 * A phone a party can be reached at, as people paste it (docs/product.md §15): valid, and in Brazil a
 * mobile; the server stores `readPhone`'s E.164. The schemas with a phone (the create body, the
 * walk-in, the user) import it from here, never a module the diner pages load first: the phone
 * library stays off their first load, and the phone reading (`phone.ts`) needs no schema library (docs/decisions/028).
 */
export const Phone = z.string().check(
  z.refine((value) => phoneProblem(value) !== 'invalid', { error: messages.phone }),
  z.refine((value) => phoneProblem(value) !== 'landline', { error: messages.mobile }),
);

const isBlank = (value: string) => value.trim() === '';

/**
 * A walk-in's phone (docs/product.md §6): optional at the door; absent or empty means none (no SMS,
 * and the card shows the party's ticket number to call out). Otherwise read like `Phone`.
 */
export const OptionalPhone = z.optional(
  z.string().check(
    z.refine((value) => isBlank(value) || phoneProblem(value) !== 'invalid', { error: messages.phone }),
    z.refine((value) => isBlank(value) || phoneProblem(value) !== 'landline', { error: messages.mobile }),
  ),
);
