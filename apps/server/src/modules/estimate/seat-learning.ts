import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../../db/types.js';
import { VENUE_WIDE_BAND, nextPace, nextSlot } from './estimator.js';
import { findPaceRows, upsertPace, upsertPaceSlot } from './paces.repository.js';

/**
 * What a seating teaches the estimator (estimator.ts), in the seat's transaction: the venue's row
 * and the band's, and the same for this hour of the week. O(1): two rows read, at most four written.
 */
export async function learnFromSeat(
  trx: Kysely<Database>,
  entry: Pick<EntryRow, 'venue_id' | 'band' | 'created_at' | 'quoted_minutes' | 'quote_basis'>,
  now: number,
): Promise<void> {
  const book = await findPaceRows(trx, entry.venue_id, now);
  for (const band of [VENUE_WIDE_BAND, entry.band]) {
    const previous = book.paces.find((p) => p.band === band);
    const slot = nextSlot(
      book.slots.find((s) => s.band === band),
      entry.venue_id,
      band,
      previous,
      entry,
      now,
    );
    if (slot) await upsertPaceSlot(trx, slot);
    await upsertPace(trx, nextPace(previous, entry.venue_id, band, entry, now));
  }
}
