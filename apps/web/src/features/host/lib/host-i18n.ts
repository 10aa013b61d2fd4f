import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
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

export const useHostT = () => useTranslation(HOST_NS);
