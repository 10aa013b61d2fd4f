import {
  defaultColor,
  defaultVenueSettings,
  isLinkUrl,
  type ThemeResponse,
  type VenueName,
  type VenueSettings,
  VenueTables,
} from '@vez/contract';
import type { VenueRow } from '../../db/types.js';
import { phoneCountryOf } from '../../lib/phone.js';

/** A venue as the services speak of it. */
export interface Venue {
  id: string;
  slug: string;
  name: VenueName;
  city: string;
  neighborhood: string;
  hasMenu: boolean;
  loginJourney: boolean;
  maxPartySize: number;
  sections: string[];
  settings: VenueSettings;
  theme: ThemeResponse;
  waitlistActive: boolean;
  waitlistLocked: boolean;
}

export const defaultTheme: ThemeResponse = {
  color: defaultColor,
  logo: { vertical: '', horizontal: '', horizontalWhite: '' },
  typeImageSpotlight: 'none',
  inspirationalImage: { small: '', large: '' },
  banners: { list: [] },
};

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A link stored before links were checked (docs/security.md) is never handed to a diner. */
function withSafeLinks(settings: VenueSettings): VenueSettings {
  const safe = (url: string | null) => (url !== null && isLinkUrl(url) ? url : null);
  if (safe(settings.menuUrl) === settings.menuUrl && safe(settings.reservationUrl) === settings.reservationUrl) return settings;
  return { ...settings, menuUrl: safe(settings.menuUrl), reservationUrl: safe(settings.reservationUrl) };
}

/**
 * Settings stored before `tables` existed read as none given (docs/product.md §2); a stored value
 * the contract would refuse reads as none too, rather than failing every read of the venue.
 */
function withTables(settings: VenueSettings): VenueSettings {
  if (VenueTables.safeParse(settings.tables).success) return settings;
  return { ...settings, tables: [] };
}

export function venueFromRow(row: VenueRow): Venue {
  const name: VenueName = { pt: row.name_pt };
  if (row.name_en) name.en = row.name_en;
  if (row.name_fr) name.fr = row.name_fr;
  if (row.name_es) name.es = row.name_es;
  const theme = parseJson<Partial<ThemeResponse>>(row.theme, {});
  return {
    id: row.id,
    slug: row.slug,
    name,
    city: row.city,
    neighborhood: row.neighborhood,
    hasMenu: row.has_menu === 1,
    loginJourney: row.login_journey === 1,
    maxPartySize: row.max_party_size,
    sections: parseJson<string[]>(row.sections, []),
    settings: withTables(withSafeLinks({ ...defaultVenueSettings, ...parseJson<Partial<VenueSettings>>(row.settings, {}) })),
    theme: {
      ...defaultTheme,
      ...theme,
      color: { ...defaultColor, ...theme.color },
      logo: { ...defaultTheme.logo, ...theme.logo },
      inspirationalImage: { ...defaultTheme.inspirationalImage, ...theme.inspirationalImage },
      banners: { list: theme.banners?.list ?? [] },
    },
    waitlistActive: row.waitlist_active === 1,
    waitlistLocked: row.waitlist_locked === 1,
  };
}

/** The smart-link (reservation widget) page used when the waitlist is closed (docs/product.md §2). */
export function reservationUrlOf(venue: Venue, smartLinkBaseUrl: string): string {
  if (venue.settings.reservationUrl) return venue.settings.reservationUrl;
  return smartLinkBaseUrl.endsWith('/') ? `${smartLinkBaseUrl}${venue.id}` : `${smartLinkBaseUrl}/${venue.id}`;
}

/** Whether this venue sends SMS to this E.164 phone: only to its `smsCountries` (docs/product.md §3). */
export function canTextPhone(venue: Venue, phone: string): boolean {
  const country = phoneCountryOf(phone);
  return country !== undefined && venue.settings.smsCountries.includes(country);
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "Brazil (BR), Portugal (PT)": the venue's SMS countries for a refusal's message. */
export function smsCountriesText(venue: Venue): string {
  return venue.settings.smsCountries.map((code) => `${regionNames.of(code) ?? code} (${code})`).join(', ');
}
