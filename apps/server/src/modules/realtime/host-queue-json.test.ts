import type { HostStreamData, VenueChannelEvent } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import type { EntryRow } from '../../db/types.js';
import { entryRow } from '../../../test/entry-rows.js';
import type { Venue } from '../venues/venue.js';
import { EMPTY_BOOK, NOT_WAITING, placeQueue, toHostEntry } from '../queue/index.js';
import { hostQueueJson } from './venue-hub.js';

const base: EntryRow = entryRow();

const rows: EntryRow[] = [
  { ...base, id: 'P'.repeat(22), priority: 1, seq: 9, name: '","globalPos":1,"quoted":"x' },
  { ...base, id: 'C'.repeat(22), status: 'called', seq: 3, notified_at: 1_763_770_100_000, calls: 2, hold_until: 1_763_770_700_000 },
  { ...base, id: 'A'.repeat(22), seq: 4, note: 'mesa ,"quoted": perto', quoted_minutes: 20, quoted_low: 15, quoted_high: 30 },
  { ...base, id: 'B'.repeat(22), seq: 5, band: 2, name: null, phone: null, note: null, email: 'a@b.c' },
];
const events: VenueChannelEvent[] = [{ type: 'seat', venueId: base.venue_id, at: '2026-11-26T09:00:00.000Z', entryId: rows[1]!.id }];

const venueOf = (operationMode: 'basic' | 'advanced', waitlistLocked: boolean) =>
  ({ settings: { operationMode }, waitlistActive: true, waitlistLocked }) as unknown as Venue;

/** The console's message as the hub built it before (JSON.stringify of the whole HostStreamData). */
function whole(venue: Venue): string {
  const placements = placeQueue(rows, venue, EMPTY_BOOK);
  const queue: HostStreamData = {
    events,
    waitlist: { active: venue.waitlistActive, locked: venue.waitlistLocked },
    entries: rows.map((row) => toHostEntry(row, placements.get(row.id) ?? NOT_WAITING)),
  };
  return JSON.stringify(queue);
}

describe("the console's queue message, from each row's kept parts", () => {
  it.each([
    ['basic', false],
    ['advanced', true],
  ] as const)('has the same bytes as the whole message serialised at once (%s)', (mode, locked) => {
    const venue = venueOf(mode, locked);
    expect(hostQueueJson(rows, venue, EMPTY_BOOK, events)).toBe(whole(venue));
    // Again, from the parts kept for the same row objects.
    expect(hostQueueJson(rows, venue, EMPTY_BOOK, events)).toBe(whole(venue));
  });
});
