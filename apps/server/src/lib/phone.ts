import { isBrazilianMobileE164, parsePhone, recentCountryOf } from '@vez/contract';
import { type CountryCode, getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * Any valid number as E.164, Brazilian by default, read as the contract reads phones
 * (docs/decisions/028); undefined when it is not a valid number. A party's phone must also be a
 * mobile in Brazil: joins and walk-ins ask the contract's `readPhone`.
 */
export function toE164(input: string, defaultCountry: 'BR' | 'US' = 'BR'): string | undefined {
  return parsePhone(input, defaultCountry)?.e164;
}

/**
 * The ISO 3166-1 alpha-2 country of an E.164 number, when its digits name one. A Brazilian mobile,
 * nearly every party's phone, is Brazil's by its own digits: a call or a seat's message asks for
 * the country of a phone read minutes or hours before, long out of the memo below, and the phone
 * library's parse cost about 5 µs a message (docs/decisions/063-join-texts-without-libraries.md).
 */
export function phoneCountryOf(e164: string): string | undefined {
  if (isBrazilianMobileE164(e164)) return 'BR';
  if (recentCountries.has(e164)) return recentCountries.get(e164);
  const country = recentCountryOf(e164)?.country ?? parsePhoneNumberFromString(e164)?.country;
  if (recentCountries.size >= RECENT_COUNTRIES) recentCountries.delete(recentCountries.keys().next().value as string);
  recentCountries.set(e164, country);
  return country;
}

/**
 * The last phones' countries: a join asks whether the venue texts its phone when it reads the
 * phone and again when it queues the SMS, each a parse otherwise (docs/decisions/042-cheaper-joins.md).
 */
const recentCountries = new Map<string, string | undefined>();
const RECENT_COUNTRIES = 256;

const known = new Set<string>(getCountries());

/** Whether a two-letter code is a country whose numbers the phone library knows. */
export function isKnownPhoneCountry(code: string): code is CountryCode {
  return known.has(code);
}
