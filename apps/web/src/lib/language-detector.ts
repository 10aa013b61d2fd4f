import type { LanguageDetectorModule } from 'i18next';

/**
 * The diner's language candidates, in the order of docs/product.md §19: ?lng=, localStorage, cookie,
 * the browser's languages, then <html lang>. Region suffixes are dropped (pt-BR -> pt); i18next
 * picks the first supported candidate and falls back to pt. Written here instead of
 * i18next-browser-languagedetector: the same order in a fraction of its weight (position page budget).
 */
export function detectLanguages(storageKey: string): string[] {
  const found: (string | null | undefined)[] = [
    new URLSearchParams(window.location.search).get('lng'),
    readStorage(storageKey),
    readCookie(storageKey),
    ...(navigator.languages ?? []),
    navigator.language,
    document.documentElement.getAttribute('lang'),
  ];
  return found.filter((lng): lng is string => Boolean(lng)).map((lng) => lng.split('-')[0] ?? lng);
}

/** i18next's detector module: detects at init and keeps every language change in localStorage. */
export function languageDetector(storageKey: string): LanguageDetectorModule {
  return {
    type: 'languageDetector',
    detect: () => detectLanguages(storageKey),
    cacheUserLanguage(lng: string) {
      try {
        window.localStorage.setItem(storageKey, lng);
      } catch {
        // Storage refused (private mode, quota): the choice lasts for this page only.
      }
    },
  };
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const part = document.cookie
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(prefix));
  return part ? decodeURIComponent(part.slice(prefix.length)) : undefined;
}
