import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { DEFAULT_COUNTRY } from './constants.js';
import { isPlausiblePhone } from './phone-digits.js';

/**
 * Phones as people paste them (docs/product.md §15): one reading shared by the join form, the
 * walk-in dialog and the server, so that what the browser accepts the server stores, as E.164.
 * libphonenumber-js with its `min` metadata does the parsing (`+55 (11) 97777-6543`,
 * `55 11 98765 4321`, `011 98765-4321`, `(11)98765-4321`); `min` cannot tell a mobile from a
 * landline, so the Brazilian mobile rule is written below.
 */

/** A valid number, read. */
export interface ParsedPhone {
  /** `+5511987654321` */
  e164: string;
  /** Its ISO 3166-1 alpha-2 country, when its digits name one. */
  country: CountryCode | undefined;
  /** `55` */
  countryCallingCode: string;
  /** `11987654321`: area code and number, without the country code or a trunk prefix. */
  nationalNumber: string;
}

/** Why a phone is refused: not a number at all, or a Brazilian landline (no SMS, no WhatsApp). */
export type PhoneProblem = 'invalid' | 'landline';

export type PhoneReading = { ok: true; phone: ParsedPhone } | { ok: false; problem: PhoneProblem };

/** Brazil's calling code: its numbers follow the mobile rule. */
export const BRAZIL_CALLING_CODE = '55';

// Brazil's area codes as libphonenumber's full metadata lists them (its `max` build); the `min`
// build the browser loads accepts any two digits. Literals, not `new RegExp`: a module with no
// top-level work lets the bundler leave it off pages that do not read phones.
/** docs/product.md §15: area code, then 9 digits starting with 9. */
const BRAZILIAN_MOBILE = /^(?:[14689][1-9]|2[12478]|3[1-578]|5[13-5]|7[13-579])9\d{8}$/;
/** Area code, then 8 digits starting with 2 to 5: a fixed line. */
const BRAZILIAN_LANDLINE = /^(?:[14689][1-9]|2[12478]|3[1-578]|5[13-5]|7[13-579])[2-5]\d{7}$/;

/** What people write between a phone's digits (`isPlausiblePhone` allows nothing else but a leading +). */
const FORMATTING = /[\s().-]/g;

/**
 * The phone library's reading of the two ways most Brazilians write a mobile, without the library:
 * in full (`+55 11 98765-4321`) or as area code and number (`(11) 98765-4321`, read so only when
 * Brazil is the default country), however spaced, dotted, dashed or bracketed. Undefined for
 * anything else, which the library reads. `phone.test.ts` checks both readings agree.
 */
function readBrazilianMobile(input: string, defaultCountry: string): ParsedPhone | undefined {
  const compact = input.replace(FORMATTING, '');
  // In full: +55, then what BRAZILIAN_MOBILE reads; else the national number itself, in Brazil.
  const national = isBrazilianMobileE164(compact)
    ? compact.slice(1 + BRAZIL_CALLING_CODE.length)
    : defaultCountry.toUpperCase() === 'BR' && BRAZILIAN_MOBILE.test(compact)
      ? compact
      : undefined;
  if (national === undefined) return undefined;
  return { e164: `+${BRAZIL_CALLING_CODE}${national}`, country: 'BR', countryCallingCode: BRAZIL_CALLING_CODE, nationalNumber: national };
}

/**
 * Whether an E.164 number is a Brazilian mobile (`+55`, then what BRAZILIAN_MOBILE reads): its
 * country is Brazil without asking the phone library, as the server asks of every stored phone it
 * texts (docs/decisions/063-join-texts-without-libraries.md); a mobile written in full, once its
 * formatting is gone (`readBrazilianMobile`).
 */
export function isBrazilianMobileE164(e164: string): boolean {
  return e164.startsWith(`+${BRAZIL_CALLING_CODE}`) && BRAZILIAN_MOBILE.test(e164.slice(1 + BRAZIL_CALLING_CODE.length));
}

/**
 * Any valid number, Brazilian by default (a number typed without its country code), whatever
 * spaces, dots, dashes and brackets it carries; undefined when it is not a valid number.
 */
export function parsePhone(input: string, defaultCountry: string = DEFAULT_COUNTRY): ParsedPhone | undefined {
  if (!isPlausiblePhone(input)) return undefined;
  // A join's phone, read at every join (docs/decisions/063-join-texts-without-libraries.md).
  return readBrazilianMobile(input, defaultCountry) ?? readByLibrary(input, defaultCountry);
}

/**
 * What the phone library alone makes of a text (undefined when not a valid number): `parsePhone`'s
 * reading of what is not a Brazilian mobile, and what its own reading of those is checked against
 * (`phone.test.ts`, `bench/lib/join-text-micro.ts`).
 */
export function readByLibrary(input: string, defaultCountry: string = DEFAULT_COUNTRY): ParsedPhone | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry.toUpperCase() as CountryCode);
  if (!parsed?.isValid()) return undefined;
  return {
    e164: parsed.number,
    country: parsed.country,
    countryCallingCode: parsed.countryCallingCode,
    nationalNumber: parsed.nationalNumber,
  };
}

/** What is wrong with a read number for reaching a party (docs/product.md §15), if anything. */
export function problemOf(phone: ParsedPhone | undefined): PhoneProblem | undefined {
  if (!phone) return 'invalid';
  if (phone.countryCallingCode !== BRAZIL_CALLING_CODE || BRAZILIAN_MOBILE.test(phone.nationalNumber)) return undefined;
  return BRAZILIAN_LANDLINE.test(phone.nationalNumber) ? 'landline' : 'invalid';
}

/**
 * A phone a party can be reached at (docs/product.md §15): a valid number and, in Brazil, a mobile.
 * Foreign numbers are valid here; the venue's SMS countries decide on them (docs/product.md §3.6).
 */
export function readPhone(input: string, defaultCountry: string = DEFAULT_COUNTRY): PhoneReading {
  const key = `${defaultCountry}|${input}`;
  const kept = recentReadings.get(key);
  if (kept) return kept;
  const phone = parsePhone(input, defaultCountry);
  const problem = problemOf(phone);
  const reading: PhoneReading = Object.freeze(
    phone && !problem ? { ok: true as const, phone: Object.freeze(phone) } : { ok: false as const, problem: problem ?? 'invalid' },
  );
  if (recentReadings.size >= RECENT_READINGS) recentReadings.delete(recentReadings.keys().next().value as string);
  recentReadings.set(key, reading);
  if (reading.ok) {
    if (recentCountries.size >= RECENT_READINGS) recentCountries.delete(recentCountries.keys().next().value as string);
    recentCountries.set(reading.phone.e164, reading.phone.country);
  }
  return reading;
}

/**
 * The country of an E.164 number a recent reading gave (`{ country }`, which may be undefined for a
 * number of no country), or undefined when none did: a join's server asks for its phone's country
 * after reading it, a parse of the phone library otherwise (docs/decisions/042-cheaper-joins.md).
 */
export function recentCountryOf(e164: string): { country: string | undefined } | undefined {
  return recentCountries.has(e164) ? { country: recentCountries.get(e164) } : undefined;
}
const recentCountries = /* @__PURE__ */ new Map<string, string | undefined>();

/**
 * The last readings, by input and default country: a join's phone is read by both checks of its
 * body's `Phone` (phone-schema.ts) and again by the server, each a parse of the phone library
 * otherwise (docs/decisions/042-cheaper-joins.md). Enough for the joins a server has in flight.
 */
const recentReadings = /* @__PURE__ */ new Map<string, PhoneReading>();
const RECENT_READINGS = 256;

/** `readPhone`'s refusal alone: what the forms and the contract's `Phone` check. */
export const phoneProblem = (input: string, defaultCountry: string = DEFAULT_COUNTRY): PhoneProblem | undefined => {
  const reading = readPhone(input, defaultCountry);
  return reading.ok ? undefined : reading.problem;
};
