import {
  type Color,
  DEFAULT_MAX_PARTY_SIZE,
  type ErrorCode,
  type VenueNameLanguage,
  type VenueSettings,
  defaultColor,
  defaultVenueSettings,
} from '@vez/contract';

/** The venue as the diner pages hold it (docs/product.md §13), merged from venue, party sizes and theme. */
export interface VenueInfo {
  _id: string;
  slug: string;
  venueName: Partial<Record<VenueNameLanguage, string>>;
  city: string;
  neighborhood: string;
  color: Color;
  /** Image URLs, already resolved (image host + path + quality/format, or the placeholder). */
  logoVertical: string;
  logoHorizontal: string;
  smallBackgroundImage: string;
  largeBackgroundImage: string;
  maxPartySize: number;
  typeImageSpotlight: string;
  hasMenu: boolean;
  sections: string[];
  hiredServices: { loginJourney: boolean };
  settings: VenueSettings;
  /** The venue's reservation (smart-link) page, used whenever the waitlist is closed. */
  reservationUrl: string;
  /** The channel a party joining here is asked about (docs/product.md §10): WhatsApp asks for consent. */
  channel: 'sms' | 'whatsapp';
}

/** The venue loading result of docs/product.md §13: a success flag plus error codes. */
export interface VenueInfoResult {
  success: boolean;
  errors: ErrorCode[];
  /** The venue itself does not exist (or its id is malformed): go to /404-not-found. */
  notFound: boolean;
  venueInfo: VenueInfo;
}

export function defaultVenueInfo(venueId: string, reservationUrl: string, placeholder: string): VenueInfo {
  return {
    _id: venueId,
    slug: '',
    venueName: {},
    city: '',
    neighborhood: '',
    color: defaultColor,
    logoVertical: '',
    logoHorizontal: '',
    smallBackgroundImage: placeholder,
    largeBackgroundImage: placeholder,
    maxPartySize: DEFAULT_MAX_PARTY_SIZE,
    typeImageSpotlight: '',
    hasMenu: false,
    sections: [],
    hiredServices: { loginJourney: false },
    settings: defaultVenueSettings,
    reservationUrl,
    channel: 'sms',
  };
}

/** Venue info is updated by merging partial data into the held state (docs/product.md §14). */
export function mergeVenueInfo(state: VenueInfo, ...partials: Partial<VenueInfo>[]): VenueInfo {
  return partials.reduce<VenueInfo>((acc, partial) => ({ ...acc, ...partial }), state);
}

/** The venue name in a language, Portuguese when that language has none (docs/product.md §13). */
export function venueNameIn(info: Pick<VenueInfo, 'venueName'>, language: string): string {
  const lang = language.split('-')[0] as VenueNameLanguage;
  return info.venueName[lang] || info.venueName.pt || '';
}

/** Only the theme failed: the venue is usable with default branding (docs/product.md §18). */
export function isOnlyThemeProblem(errors: readonly ErrorCode[]): boolean {
  return errors.length > 0 && errors.every((code) => code === 'THEME_NOT_FOUND');
}
