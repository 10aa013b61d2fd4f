import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../lib/i18n';

export type VenueWording = Record<string, Record<string, string>>;
export type TextFn = (key: string, options?: Record<string, unknown>) => string;

/** t() with the venue's per-language overrides of named keys first ("special wording", docs/product.md §2). */
export function useVenueText(wording: VenueWording | undefined): TextFn {
  const { t, i18n } = useTranslation();
  const lng = currentLanguage(i18n.language);
  return useCallback<TextFn>((key, options) => wording?.[lng]?.[key] ?? String(t(key, options)), [wording, lng, t]);
}
