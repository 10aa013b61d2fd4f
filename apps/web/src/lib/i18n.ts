import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_STORAGE_KEY, type Language } from '@vez/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en/translation';
import { pt } from '../locales/pt/translation';
import { languageDetector } from './language-detector';

/**
 * pt is the default and fallback, en the other language (docs/product.md §19). Detection order:
 * ?lng=, localStorage `i18n`, cookie, browser, <html lang>; the choice is cached in localStorage.
 * Both catalogues of the shared texts ship in the entry, so the first render is synchronous; the
 * join, verification and terms texts come with those screens' code (locales/forms.ts).
 */
export function initI18n(): typeof i18next {
  if (i18next.isInitialized) return i18next;
  void i18next
    .use(languageDetector(LANGUAGE_STORAGE_KEY))
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
    });
  syncHtmlLang(i18next.language);
  i18next.on('languageChanged', syncHtmlLang);
  return i18next;
}

/** Adds a screen's texts in both languages to the catalogue, before that screen renders. */
export function addTranslations(bundles: Record<Language, object>): void {
  const i18n = initI18n();
  for (const [lng, texts] of Object.entries(bundles)) i18n.addResourceBundle(lng, 'translation', texts, true, true);
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
