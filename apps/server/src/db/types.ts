import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Times are epoch milliseconds (bigint in PostgreSQL, parsed to number; integer in SQLite). */
export interface VenueTable {
  id: string;
  slug: string;
  name_pt: string;
  name_en: string | null;
  name_fr: string | null;
  name_es: string | null;
  city: string;
  neighborhood: string;
  has_menu: number;
  login_journey: number;
  max_party_size: number;
  /** JSON array of section names. */
  sections: string;
  /** JSON of VenueSettings. */
  settings: string;
  /** JSON of ThemeResponse. */
  theme: string;
  waitlist_active: number;
  waitlist_locked: number;
  /** The next ticket number (customerTab); joins take it under the venue row lock. */
  next_seq: number;
  created_at: number;
  updated_at: number;
}

export interface EntryTable {
  id: string;
  share_id: string;
  venue_id: string;
  seq: number;
  status: 'active' | 'called' | 'seated' | 'cancelled';
  priority: number;
  party_size: number;
  band: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  note: string | null;
  section: string | null;
  origin_label: string;
  lang: string;
  created_at: number;
  notified_at: number | null;
  seated_at: number | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
  /** When it stopped waiting (seated or cancelled); drives retention. */
  ended_at: number | null;
  erased_at: number | null;
}

/** Recent seating pace per venue and band (band -1: the whole venue), for estimatedTime. */
export interface VenuePaceTable {
  venue_id: string;
  band: number;
  ema_ms: number;
  last_seated_at: number;
  samples: number;
}

/** An uploaded venue image; the bytes live here so every server instance serves the same file. */
export interface ImageTable {
  id: string;
  venue_id: string;
  content_type: string;
  /** BLOB in SQLite, bytea in PostgreSQL; both drivers answer a Buffer. */
  bytes: Buffer;
  width: number;
  height: number;
  size: number;
  created_at: number;
}

export interface Database {
  venues: VenueTable;
  entries: EntryTable;
  venue_pace: VenuePaceTable;
  images: ImageTable;
}

export type VenueRow = Selectable<VenueTable>;
export type NewVenueRow = Insertable<VenueTable>;
export type VenueRowUpdate = Updateable<VenueTable>;
export type EntryRow = Selectable<EntryTable>;
export type NewEntryRow = Insertable<EntryTable>;
export type PaceRow = Selectable<VenuePaceTable>;
export type ImageRow = Selectable<ImageTable>;
// Generated is re-exported for later tables that use auto-increment keys.
export type { Generated };
