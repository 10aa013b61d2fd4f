import i18next, { type TFunction } from 'i18next';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { initI18n } from '../../../lib/i18n';
import { en } from '../locales/en';
import { pt } from '../locales/pt';

export const HOST_NS = 'host';

/**
 * The console's strings live in their own namespace, added when this chunk loads, so the diner
 * pages never download them.
 */
export function registerHostStrings(): void {
  initI18n();
  if (!i18next.hasResourceBundle('pt', HOST_NS)) i18next.addResourceBundle('pt', HOST_NS, pt);
  if (!i18next.hasResourceBundle('en', HOST_NS)) i18next.addResourceBundle('en', HOST_NS, en);
}

registerHostStrings();

function subscribe(onChange: () => void): () => void {
  i18next.on('languageChanged', onChange);
  return () => i18next.off('languageChanged', onChange);
}

/**
 * `t` of the host namespace, re-rendering on a language change. It talks to i18next directly
 * rather than through react-i18next: importing react-i18next from this chunk too makes the bundler
 * split shared code out of the diner entry chunk (the diner pages would load more JavaScript).
 */
export function useHostT(): { t: TFunction; i18n: typeof i18next } {
  const language = useSyncExternalStore(
    subscribe,
    () => i18next.language,
    () => i18next.language,
  );
  const fixed = useMemo(() => i18next.getFixedT(language, HOST_NS), [language]);
  const t = useCallback(((...args: Parameters<TFunction>) => fixed(...args)) as TFunction, [fixed]);
  return { t, i18n: i18next };
}
