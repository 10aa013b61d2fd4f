import {
  type HostSettingsResponse,
  SETTING_LIMITS,
  type ThemeResponse,
  type VenueName,
  type VenueSettings,
  type VenueSettingsPatch,
} from '@vez/contract';

/**
 * The whole-number fields typed as text (docs/decisions/032-the-door-on-a-busy-night.md): a value
 * outside its limits is refused before anything is sent, never clamped, and an empty field is not
 * zero. Each of these needs a number (0 means "no window" or "off"), so empty is refused; the cap
 * of waiting parties (`maxWaitingText`) is the one where empty means "no cap".
 */
export const NUMBER_FIELDS = {
  maxPartySize: { field: 'maxPartySize', limits: SETTING_LIMITS.maxPartySize },
  holdMinutes: { field: 'settings.holdMinutes', limits: SETTING_LIMITS.holdMinutes },
  gettingCloseAt: { field: 'settings.gettingCloseAt', limits: SETTING_LIMITS.gettingCloseAt },
  gettingCloseMinutes: { field: 'settings.gettingCloseMinutes', limits: SETTING_LIMITS.gettingCloseMinutes },
} as const;
export type NumberField = keyof typeof NUMBER_FIELDS;

/** What the settings form edits: the server's answer, with lists and JSON as editable text. */
export interface SettingsDraft {
  name: VenueName;
  address: { city: string; neighborhood: string };
  /** The whole-number fields as typed (`NUMBER_FIELDS`). */
  numbers: Record<NumberField, string>;
  sectionsText: string;
  hasMenu: boolean;
  loginJourney: boolean;
  settings: VenueSettings;
  wordingText: string;
  /** The SMS countries as typed: ISO codes separated by commas or spaces ("BR, PT"). */
  smsCountriesText: string;
  /** The cap of waiting parties as typed; empty: no cap. */
  maxWaitingText: string;
  /** The venue's tables as typed, one row per size (docs/product.md §2). */
  tablesRows: TableRow[];
  theme: ThemeResponse;
}

/** A row of the Tables section: seats and how many tables of that size, as typed. */
export interface TableRow {
  seats: string;
  count: string;
}

export function toDraft(s: HostSettingsResponse): SettingsDraft {
  return {
    name: { pt: s.venue.name.pt, en: s.venue.name.en ?? '', fr: s.venue.name.fr ?? '', es: s.venue.name.es ?? '' },
    address: { ...s.venue.address },
    numbers: {
      maxPartySize: String(s.maxPartySize),
      holdMinutes: String(s.settings.holdMinutes),
      gettingCloseAt: String(s.settings.gettingCloseAt),
      gettingCloseMinutes: String(s.settings.gettingCloseMinutes),
    },
    sectionsText: s.sections.join('\n'),
    hasMenu: s.venue.hasMenu,
    loginJourney: s.venue.hiredServices.loginJourney,
    settings: s.settings,
    wordingText: Object.keys(s.settings.wording).length ? JSON.stringify(s.settings.wording, null, 2) : '',
    smsCountriesText: (s.settings.smsCountries ?? []).join(', '),
    maxWaitingText:
      s.settings.maxWaitingParties === null || s.settings.maxWaitingParties === undefined ? '' : String(s.settings.maxWaitingParties),
    tablesRows: (s.settings.tables ?? []).map((row) => ({ seats: String(row.seats), count: String(row.count) })),
    theme: s.theme,
  };
}

/** Text the form refuses before sending: the field at fault (the server's path) and a message key with its values. */
export class DraftError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly values: Record<string, number> = {},
  ) {
    super(message);
  }
}

/** A whole-number field's value, or the refusal naming its limits (empty is refused, not zero). */
function wholeNumber(draft: SettingsDraft, key: NumberField): number {
  const { field, limits } = NUMBER_FIELDS[key];
  const text = draft.numbers[key].trim();
  if (text === '') throw new DraftError(field, 'numberEmpty', limits);
  if (!wholeIn(text, limits.min, limits.max)) throw new DraftError(field, 'numberRange', limits);
  return Number(text);
}

const wholeIn = (text: string, min: number, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

/**
 * The tables as the contract takes them (seats 1..40, count 1..200, each size once); checked here
 * too, so the owner reads which rule in the console's language. Empty rows are dropped.
 */
function toTables(rows: TableRow[]): VenueSettings['tables'] {
  const filled = rows.filter((row) => row.seats.trim() !== '' || row.count.trim() !== '');
  if (filled.some((row) => !wholeIn(row.seats, 1, 40) || !wholeIn(row.count, 1, 200)))
    throw new DraftError('settings.tables', 'tablesNumbers');
  const tables = filled.map((row) => ({ seats: Number(row.seats), count: Number(row.count) }));
  if (new Set(tables.map((row) => row.seats)).size !== tables.length) throw new DraftError('settings.tables', 'tablesOnce');
  if (tables.length > 12) throw new DraftError('settings.tables', 'tablesMany');
  return tables;
}

const orNull = (value: string | null) => (value && value.trim() !== '' ? value.trim() : null);

/** The PATCH body for the whole form; throws DraftError for text the server could not take. */
export function toPatch(draft: SettingsDraft): VenueSettingsPatch {
  let wording: VenueSettings['wording'] = {};
  if (draft.wordingText.trim() !== '') {
    try {
      wording = JSON.parse(draft.wordingText) as VenueSettings['wording'];
    } catch {
      throw new DraftError('settings.wording', 'wordingJson');
    }
    if (typeof wording !== 'object' || wording === null || Array.isArray(wording)) throw new DraftError('settings.wording', 'wordingJson');
  }
  // docs/product.md §3.6: the server checks each country code and the cap's range; the draft only parses.
  const maxWaiting = draft.maxWaitingText.trim();
  const waitingLimits = SETTING_LIMITS.maxWaitingParties;
  if (maxWaiting !== '' && !wholeIn(maxWaiting, waitingLimits.min, waitingLimits.max)) {
    throw new DraftError('settings.maxWaitingParties', 'maxWaitingNumber', waitingLimits);
  }
  const maxPartySize = wholeNumber(draft, 'maxPartySize');
  const holdMinutes = wholeNumber(draft, 'holdMinutes');
  const gettingCloseAt = wholeNumber(draft, 'gettingCloseAt');
  const gettingCloseMinutes = wholeNumber(draft, 'gettingCloseMinutes');
  const smsCountries = draft.smsCountriesText
    .split(/[\s,;]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  const name: VenueName = { pt: draft.name.pt.trim() };
  for (const lang of ['en', 'fr', 'es'] as const) {
    const value = draft.name[lang]?.trim();
    if (value) name[lang] = value;
  }
  return {
    name,
    address: draft.address,
    maxPartySize,
    sections: draft.sectionsText
      .split(/\n|,/)
      .map((s) => s.trim())
      .filter(Boolean),
    hasMenu: draft.hasMenu,
    loginJourney: draft.loginJourney,
    settings: {
      ...draft.settings,
      wording,
      holdMinutes,
      gettingCloseAt,
      gettingCloseMinutes,
      menuUrl: orNull(draft.settings.menuUrl),
      reservationUrl: orNull(draft.settings.reservationUrl),
      maxWaitingParties: maxWaiting === '' ? null : Number(maxWaiting),
      smsCountries,
      tables: toTables(draft.tablesRows),
    },
    theme: draft.theme,
  };
}
