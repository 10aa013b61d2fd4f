import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_STORAGE_KEY, type Language } from '@vez/contract';
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en/translation';
import { pt } from '../locales/pt/translation';

/**
 * pt is the default and fallback, en the other language (spec section 9). Detection order:
 * ?lng=, localStorage `i18n`, cookie, browser, <html lang>; the choice is cached in localStorage.
 * Both catalogues are small, so they ship in the entry and the first render is synchronous.
 */
export function initI18n(): typeof i18next {
  if (i18next.isInitialized) return i18next;
  void i18next
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: { pt: { translation: pt }, en: { translation: en } },
      supportedLngs: [...LANGUAGES],
      fallbackLng: DEFAULT_LANGUAGE,
      load: 'languageOnly',
      nonExplicitSupportedLngs: true,
      initAsync: false,
      returnObjects: true,
      interpolation: { escapeValue: false },
      detection: {
        order: ['querystring', 'localStorage', 'cookie', 'navigator', 'htmlTag'],
        lookupQuerystring: 'lng',
        lookupLocalStorage: LANGUAGE_STORAGE_KEY,
        lookupCookie: LANGUAGE_STORAGE_KEY,
        caches: ['localStorage'],
        convertDetectedLanguage: (lng: string) => lng.split('-')[0] ?? lng,
      },
    });
  syncHtmlLang(i18next.language);
  i18next.on('languageChanged', syncHtmlLang);
  return i18next;
}

/** The current language, narrowed to the supported ones (pt when anything else). */
export function currentLanguage(lng: string | undefined = i18next.language): Language {
  const base = lng?.split('-')[0];
  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Language) : DEFAULT_LANGUAGE;
}

function syncHtmlLang(lng: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = currentLanguage(lng) === 'en' ? 'en-US' : 'pt-BR';
}
