import { type CountryCode, getCountries, getCountryCallingCode } from 'libphonenumber-js/min';
import { DEFAULT_COUNTRY, PREFERRED_COUNTRIES } from '@vez/contract';

export interface Country {
  code: CountryCode;
  name: string;
  callingCode: string;
  flag: string;
}

export const defaultCountryCode = DEFAULT_COUNTRY.toUpperCase() as CountryCode;

/** Regional-indicator emoji of an ISO country code: no flag images to download. */
export function flagOf(code: string): string {
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/**
 * Every country with a calling code, named in the diner's language by the browser (Intl), the
 * preferred ones (Brazil, United States) first, then alphabetically.
 */
export function countryList(language: string): Country[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([language === 'en' ? 'en-US' : 'pt-BR'], { type: 'region' });
  } catch {
    names = undefined;
  }
  const all = getCountries().map((code) => ({
    code,
    name: names?.of(code) ?? code,
    callingCode: getCountryCallingCode(code),
    flag: flagOf(code),
  }));
  const preferred = PREFERRED_COUNTRIES.map((p) => all.find((c) => c.code === p.toUpperCase())).filter((c): c is Country => Boolean(c));
  const rest = all.filter((c) => !preferred.includes(c)).sort((a, b) => a.name.localeCompare(b.name, language));
  return [...preferred, ...rest];
}
