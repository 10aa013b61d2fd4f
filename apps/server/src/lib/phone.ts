import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** Parses what a diner typed to E.164, Brazil by default; undefined when it is not a valid number. */
export function toE164(input: string, defaultCountry: 'BR' | 'US' = 'BR'): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry);
  if (!parsed || !parsed.isValid()) return undefined;
  return parsed.number;
}
