import type { HostSettingsResponse, ThemeResponse, VenueName, VenueSettings, VenueSettingsPatch } from '@vez/contract';

/** What the settings form edits: the server's answer, with lists and JSON as editable text. */
export interface SettingsDraft {
  name: VenueName;
  address: { city: string; neighborhood: string };
  maxPartySize: number;
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
    maxPartySize: s.maxPartySize,
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

export class DraftError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const wholeIn = (text: string, min: number, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

/**
 * The tables as the contract takes them (seats 1..40, count 1..200, each size once); checked here
 * too, so the owner reads which rule in the console's language. Empty rows are dropped.
 */
function toTables(rows: TableRow[]): VenueSettings['tables'] {
  const filled = rows.filter((row) => row.seats.trim() !== '' || row.count.trim() !== '');
  if (filled.some((row) => !wholeIn(row.seats, 1, 40) || !wholeIn(row.count, 1, 200))) throw new DraftError('tables', 'tablesNumbers');
  const tables = filled.map((row) => ({ seats: Number(row.seats), count: Number(row.count) }));
  if (new Set(tables.map((row) => row.seats)).size !== tables.length) throw new DraftError('tables', 'tablesOnce');
  if (tables.length > 12) throw new DraftError('tables', 'tablesMany');
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
      throw new DraftError('wording', 'wordingJson');
    }
    if (typeof wording !== 'object' || wording === null || Array.isArray(wording)) throw new DraftError('wording', 'wordingJson');
  }
  // docs/product.md §3.6: the server checks each country code and the cap's range; the draft only parses.
  const maxWaiting = draft.maxWaitingText.trim();
  if (maxWaiting !== '' && !/^\d+$/.test(maxWaiting)) throw new DraftError('maxWaitingParties', 'maxWaitingNumber');
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
    maxPartySize: draft.maxPartySize,
    sections: draft.sectionsText
      .split(/\n|,/)
      .map((s) => s.trim())
      .filter(Boolean),
    hasMenu: draft.hasMenu,
    loginJourney: draft.loginJourney,
    settings: {
      ...draft.settings,
      wording,
      menuUrl: orNull(draft.settings.menuUrl),
      reservationUrl: orNull(draft.settings.reservationUrl),
      maxWaitingParties: maxWaiting === '' ? null : Number(maxWaiting),
      smsCountries,
      tables: toTables(draft.tablesRows),
    },
    theme: draft.theme,
  };
}
