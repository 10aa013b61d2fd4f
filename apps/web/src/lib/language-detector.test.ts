import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { detectLanguages, languageDetector } from './language-detector';

const KEY = 'i18n';

function setBrowser(languages: string[]): void {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

/** A fresh i18next instance with the detector, as lib/i18n sets it up. */
async function detectedBy(): Promise<string> {
  const instance = i18next.createInstance();
  await instance.use(languageDetector(KEY)).init({
    resources: { pt: { translation: {} }, en: { translation: {} } },
    supportedLngs: ['pt', 'en'],
    fallbackLng: 'pt',
    load: 'languageOnly',
    nonExplicitSupportedLngs: true,
  });
  return instance.language;
}

beforeEach(() => {
  localStorage.clear();
  document.cookie = `${KEY}=; max-age=0; path=/`;
  window.history.replaceState(null, '', '/');
  document.documentElement.removeAttribute('lang');
  setBrowser([]);
});
afterEach(() => vi.restoreAllMocks());

describe('language detector', () => {
  it('takes ?lng= first, then localStorage, cookie, browser languages and <html lang>, without regions', () => {
    window.history.replaceState(null, '', '/?lng=en-GB');
    localStorage.setItem(KEY, 'pt');
    document.cookie = `${KEY}=fr`;
    setBrowser(['es-ES', 'de']);
    document.documentElement.setAttribute('lang', 'pt-BR');
    expect(detectLanguages(KEY)).toEqual(['en', 'pt', 'fr', 'es', 'de', 'es', 'pt']);
  });

  it('prefers the stored choice over the browser when there is no ?lng=', async () => {
    localStorage.setItem(KEY, 'en');
    setBrowser(['pt-BR']);
    expect(await detectedBy()).toBe('en');
  });

  it('reads the cookie when storage holds nothing', async () => {
    document.cookie = `${KEY}=en`;
    setBrowser(['pt-BR']);
    expect(await detectedBy()).toBe('en');
  });

  it('skips unsupported browser languages for the next supported one', async () => {
    setBrowser(['fr-FR', 'en-US']);
    expect(await detectedBy()).toBe('en');
  });

  it('uses <html lang> last and falls back to pt when nothing is supported', async () => {
    document.documentElement.setAttribute('lang', 'en-US');
    expect(await detectedBy()).toBe('en');
    localStorage.clear(); // the first init cached its choice
    document.documentElement.setAttribute('lang', 'de');
    setBrowser(['fr']);
    expect(await detectedBy()).toBe('pt');
  });

  it('caches the detected language and every later change in localStorage', async () => {
    window.history.replaceState(null, '', '/?lng=en');
    const instance = i18next.createInstance();
    await instance
      .use(languageDetector(KEY))
      .init({ resources: { pt: { translation: {} }, en: { translation: {} } }, supportedLngs: ['pt', 'en'], fallbackLng: 'pt' });
    expect(localStorage.getItem(KEY)).toBe('en');
    await instance.changeLanguage('pt');
    expect(localStorage.getItem(KEY)).toBe('pt');
  });
});
