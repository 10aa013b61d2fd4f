import * as z from 'zod/mini';
import { SETTING_LIMITS } from './constants.js';
import { VenueId } from './ids.js';
import { plainText } from './plain-text.js';
import { MessageTemplates } from './templates.js';

// Defaults live in a zod-free file so pages that only need them do not bundle the schemas.
export { defaultColor, defaultVenueSettings } from './defaults.js';

/** Venue name per language; Portuguese is required and is the fallback (docs/product.md §13). */
export const VenueName = z.object({
  pt: z.string().check(z.minLength(1), z.maxLength(120)),
  en: z.optional(z.string().check(z.maxLength(120))),
  fr: z.optional(z.string().check(z.maxLength(120))),
  es: z.optional(z.string().check(z.maxLength(120))),
});
export type VenueName = z.infer<typeof VenueName>;

/** A venue name as staff write it: strict and plain text (docs/security.md). */
const venueNameText = (min: number) => z.string().check(plainText(), z.minLength(min), z.maxLength(120));
export const VenueNameBody = z.strictObject({
  pt: venueNameText(1),
  en: z.optional(venueNameText(0)),
  fr: z.optional(venueNameText(0)),
  es: z.optional(venueNameText(0)),
});

export const SectionMode = z.enum(['none', 'required']);
export const NoteMode = z.enum(['note', 'unit', 'locationAndCompany']);
export const OperationMode = z.enum(['basic', 'advanced']);
export type OperationMode = z.infer<typeof OperationMode>;

/** Per-language overrides of named message keys ("special wording", docs/product.md §2). */
export const Wording = z.record(
  z.string().check(plainText(), z.maxLength(20)),
  z.record(z.string().check(plainText(), z.maxLength(100)), z.string().check(plainText({ multiLine: true }), z.maxLength(500))),
);

/**
 * A link a diner follows (the menu, the reservation page): an http(s) address or a path on this
 * site, never `javascript:`, `data:` and the like (docs/security.md). `//host` and `/\host` are
 * other sites in a browser: refused as paths.
 */
export const isLinkUrl = (value: string): boolean => /^https?:\/\/[^\s/?#\\]/i.test(value) || /^\/(?![/\\])\S*$/.test(value);
export const LinkUrl = z
  .string()
  .check(plainText(), z.maxLength(2000), z.refine(isLinkUrl, { error: 'Use an http(s) address (https://…) or a path on this site (/…).' }));

/**
 * The venue's dining tables by number of seats, each size once (docs/product.md §2); empty: not
 * given, and the wait estimate learns the tables from the seatings (docs/decisions/022-wait-estimates.md).
 */
export const VenueTables = z
  .array(
    z.strictObject({
      seats: z.int().check(z.gte(1), z.lte(40)),
      count: z.int().check(z.gte(1), z.lte(200)),
    }),
  )
  .check(
    z.maxLength(12, { error: 'At most 12 table sizes.' }),
    z.refine((rows) => new Set(rows.map((row) => row.seats)).size === rows.length, { error: 'Each table size once.' }),
  );
export type VenueTables = z.infer<typeof VenueTables>;

/** The refusal of a whole number outside its limits names both (docs/decisions/032): never clamped. */
export const wholeNumberMessage = (limits: { min: number; max: number }) => `Use a whole number from ${limits.min} to ${limits.max}.`;
/** A whole-number setting between its limits (constants.ts `SETTING_LIMITS`). */
export const settingInt = (limits: { min: number; max: number }) => {
  const error = wholeNumberMessage(limits);
  return z.int({ error }).check(z.gte(limits.min, { error }), z.lte(limits.max, { error }));
};

/** Per-venue settings: no venue is hard-coded (docs/product.md §2). */
export const VenueSettings = z.object({
  hidePriorityDisclaimer: z.boolean(),
  emailRequired: z.boolean(),
  sectionMode: SectionMode,
  noteMode: NoteMode,
  hideReceptionistHint: z.boolean(),
  hidePosition: z.boolean(),
  /** The join page shows the current wait before joining (docs/product.md §4). */
  showWaitBeforeJoin: z.boolean(),
  wording: Wording,
  menuUrl: z.nullable(LinkUrl),
  /** Null means `SMART_LINK_BASE_URL` + venue id. */
  reservationUrl: z.nullable(LinkUrl),
  operationMode: OperationMode,
  /** Remote joins stop while this many parties wait; null: no cap (docs/product.md §3). */
  maxWaitingParties: z.nullable(settingInt(SETTING_LIMITS.maxWaitingParties)),
  /**
   * ISO 3166-1 alpha-2 codes of the countries whose phones get this venue's SMS (docs/product.md §3);
   * a remote join with another country's phone is refused. The server checks each code is known.
   */
  smsCountries: z
    .array(z.string().check(z.regex(/^[A-Z]{2}$/, { error: 'Use two-letter country codes such as BR.' })))
    .check(z.minLength(1), z.maxLength(60)),
  /** docs/product.md §8: a call holds the table this many minutes (0: no window). */
  holdMinutes: settingInt(SETTING_LIMITS.holdMinutes),
  /** A party still called when its window ran out is marked NoShow by the server, and told. */
  autoNoShow: z.boolean(),
  /** One "getting close" message at this many places from the front (0: off). */
  gettingCloseAt: settingInt(SETTING_LIMITS.gettingCloseAt),
  /**
   * docs/product.md §8: and only once the upper end of the party's range is at most this many
   * minutes (a range not known yet: the places alone).
   */
  gettingCloseMinutes: settingInt(SETTING_LIMITS.gettingCloseMinutes),
  /** A message when the party is seated. */
  seatedMessage: z.boolean(),
  /** How the venue's messages reach parties. */
  channel: z.enum(['sms', 'whatsapp']),
  /**
   * "SMS sem acentos" (docs/product.md §8): SMS go in GSM-7, accents dropped (`toGsm7`), one segment
   * per 160 characters instead of 70. WhatsApp, push, email and the pages keep every accent.
   */
  smsWithoutAccents: z.boolean(),
  /** The venue's own message texts, by kind and language; built-in texts where none (docs/product.md §8). */
  messageTemplates: MessageTemplates,
  /** The tables the venue has, by seats; empty: not given (docs/product.md §2). */
  tables: VenueTables,
});
export type VenueSettings = z.infer<typeof VenueSettings>;

/** GET /venues/{venueId} */
export const VenueResponse = z.object({
  _id: VenueId,
  slug: z.string(),
  name: VenueName,
  address: z.object({ city: z.string(), neighborhood: z.string() }),
  hasMenu: z.boolean(),
  hiredServices: z.object({ loginJourney: z.boolean() }),
  /** The resolved reservation (smart-link) page of this venue. */
  reservationUrl: z.string(),
  settings: VenueSettings,
  /**
   * The channel a party that joins here is asked about (docs/product.md §10): `whatsapp` when the
   * venue's channel is WhatsApp and the deployment has an approved join template; the join form
   * then asks for consent. Otherwise `sms`.
   */
  channel: z.optional(z.enum(['sms', 'whatsapp'])),
});
export type VenueResponse = z.infer<typeof VenueResponse>;

/** GET /waitlists/{venueId}/party-sizes: the client reads the first item. */
export const PartySizesResponse = z.array(
  z.object({
    partySizesWidget: z.object({ max: z.number() }),
    sections: z.array(z.string()),
  }),
);
export type PartySizesResponse = z.infer<typeof PartySizesResponse>;

export const Color = z.object({
  main: z.string(),
  background: z.string(),
  accentBackground: z.string(),
  border: z.string(),
});
export type Color = z.infer<typeof Color>;

export const SpotlightType = z.string();

export const Banner = z.object({ isActive: z.boolean(), imageUrl: z.string() });

/** GET /themes/waitlist-api/{venueId}. Image fields are paths on the image host. */
export const ThemeResponse = z.object({
  color: Color,
  logo: z.object({ vertical: z.string(), horizontal: z.string(), horizontalWhite: z.string() }),
  typeImageSpotlight: SpotlightType,
  inspirationalImage: z.object({ small: z.string(), large: z.string() }),
  banners: z.object({ list: z.array(Banner) }),
});
export type ThemeResponse = z.infer<typeof ThemeResponse>;

/** GET /waitlists/{venueId}/waitlist-statuses */
/** The wait a party joining now would be quoted (docs/product.md §4), before it joins. */
export const CurrentWait = z.object({
  /** Parties waiting now (a new party would be behind all of them). */
  partiesAhead: z.number(),
  /** Absent before the venue has a pace or history: the page still shows the parties ahead. */
  estimatedTime: z.optional(z.number()),
  estimatedRange: z.optional(z.object({ low: z.number(), high: z.number() })),
});
export type CurrentWait = z.infer<typeof CurrentWait>;

export const WaitlistStatusesResponse = z.object({
  waitlist: z.object({ locked: z.boolean(), active: z.boolean() }),
  /**
   * Absent when the venue does not show it (`showWaitBeforeJoin` off, or `hidePosition` on) or when
   * the list is closed; without a pace or history yet it holds the parties ahead only.
   */
  currentWait: z.optional(CurrentWait),
});
export type WaitlistStatusesResponse = z.infer<typeof WaitlistStatusesResponse>;

const hexColor = z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/));
const imagePath = z.string().check(plainText(), z.maxLength(500));

/** PATCH of venue settings and theme by staff (host console). Every field optional. */
export const VenueSettingsPatch = z.strictObject({
  name: z.optional(VenueNameBody),
  slug: z.optional(z.string().check(z.regex(/^[a-z0-9-]{2,60}$/))),
  address: z.optional(
    z.strictObject({
      city: z.string().check(plainText(), z.maxLength(120)),
      neighborhood: z.string().check(plainText(), z.maxLength(120)),
    }),
  ),
  hasMenu: z.optional(z.boolean()),
  loginJourney: z.optional(z.boolean()),
  maxPartySize: z.optional(settingInt(SETTING_LIMITS.maxPartySize)),
  sections: z.optional(z.array(z.string().check(plainText(), z.minLength(1), z.maxLength(60))).check(z.maxLength(50))),
  settings: z.optional(z.partial(z.strictObject(VenueSettings.shape))),
  theme: z.optional(
    z.strictObject({
      color: z.optional(
        z.strictObject({
          main: z.optional(hexColor),
          background: z.optional(hexColor),
          accentBackground: z.optional(hexColor),
          border: z.optional(hexColor),
        }),
      ),
      logo: z.optional(
        z.strictObject({
          vertical: z.optional(imagePath),
          horizontal: z.optional(imagePath),
          horizontalWhite: z.optional(imagePath),
        }),
      ),
      typeImageSpotlight: z.optional(z.string().check(plainText(), z.maxLength(40))),
      inspirationalImage: z.optional(z.strictObject({ small: z.optional(imagePath), large: z.optional(imagePath) })),
      banners: z.optional(
        z.strictObject({ list: z.array(z.strictObject({ isActive: z.boolean(), imageUrl: imagePath })).check(z.maxLength(20)) }),
      ),
    }),
  ),
});
export type VenueSettingsPatch = z.infer<typeof VenueSettingsPatch>;
