import type { Language } from '@vez/contract';

/** A language the diner can pick (docs/product.md §12: code, name, fullName, country code, flag). */
export interface LanguageOption {
  code: Language;
  name: string;
  fullName: string;
  countryCode: string;
  flag: string;
}

export const languageOptions: readonly LanguageOption[] = [
  { code: 'pt', name: 'Português', fullName: 'Português (Brasil)', countryCode: 'br', flag: '🇧🇷' },
  { code: 'en', name: 'English', fullName: 'English (United States)', countryCode: 'us', flag: '🇺🇸' },
];

export function languageOption(code: Language): LanguageOption {
  return languageOptions.find((option) => option.code === code) ?? (languageOptions[0] as LanguageOption);
}
