import { type CountryCode, getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** Parses what a diner typed to E.164, Brazil by default; undefined when it is not a valid number. */
export function toE164(input: string, defaultCountry: 'BR' | 'US' = 'BR'): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry);
  if (!parsed || !parsed.isValid()) return undefined;
  return parsed.number;
}

/** The ISO 3166-1 alpha-2 country of an E.164 number, when its digits name one. */
export function phoneCountryOf(e164: string): string | undefined {
  return parsePhoneNumberFromString(e164)?.country;
}

const known = new Set<string>(getCountries());

/** Whether a two-letter code is a country whose numbers the phone library knows. */
export function isKnownPhoneCountry(code: string): code is CountryCode {
  return known.has(code);
}
