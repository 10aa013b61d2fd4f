import type { EntryRow } from '../src/db/types.js';
import { FRESH_CONVERSATION, NO_QUOTE } from '../src/modules/queue/index.js';

/**
 * A waiting party's stored row, as the unit tests of what is built from rows (position answers,
 * console messages, placements) need one; `overrides` replace its columns. Quotes and accents in
 * the name so a test sees them escaped.
 */
export function entryRow(overrides: Partial<EntryRow> = {}): EntryRow {
  return {
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    share_id: 'BBBBBBBBBBBBBBBBBBBBBB',
    venue_id: '6553f1a2b3c4d5e6f7a8b901',
    seq: 7,
    status: 'active',
    priority: 0,
    party_size: 3,
    band: 1,
    name: 'Ana "Aspas" Souza',
    phone: '+5511987650001',
    email: null,
    note: 'nota',
    section: null,
    origin_label: 'Widget',
    lang: 'pt',
    created_at: 1_763_770_000_000,
    notified_at: null,
    seated_at: null,
    cancelled_at: null,
    cancel_reason: null,
    ended_at: null,
    erased_at: null,
    join_proof_hash: null,
    link_resent_at: null,
    client_key: null,
    ...FRESH_CONVERSATION,
    ...NO_QUOTE,
    ...overrides,
  };
}
