import { phoneProblem } from '@vez/contract';
import type { PhoneRule } from './join-form-schema';

/**
 * The contract's phone reading for the join form (docs/product.md §15), loaded with the personal-data
 * block: it brings libphonenumber's metadata, which the join page's first load does without.
 */
export const phoneRule: PhoneRule = (phone) => phoneProblem(phone);
