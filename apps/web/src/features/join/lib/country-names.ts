import type { Language } from '@vez/contract';

const locales: Record<Language, string> = { pt: 'pt-BR', en: 'en-US' };

/** "Brasil, Portugal": the venue's SMS countries (ISO codes) named in the diner's language. */
export function countryNames(codes: readonly string[], language: Language): string {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([locales[language]], { type: 'region' });
  } catch {
    names = undefined;
  }
  return codes.map((code) => names?.of(code) ?? code).join(', ');
}
