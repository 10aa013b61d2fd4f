import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../../db/types.js';

type Executor = Kysely<Database>;

/**
 * Puts an ended entry back in the queue, only if it is still the ending we saw (no race with a
 * second undo or with retention). Answers whether a row changed.
 */
export async function reopenEntry(db: Executor, entry: EntryRow, status: 'active' | 'called'): Promise<boolean> {
  if (entry.ended_at === null) return false;
  const result = await db
    .updateTable('entries')
    .set({ status, seated_at: null, cancelled_at: null, cancel_reason: null, ended_at: null })
    .where('id', '=', entry.id)
    .where('status', '=', entry.status)
    .where('ended_at', '=', entry.ended_at)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface DayEntryRow {
  status: EntryRow['status'];
  cancel_reason: string | null;
  created_at: number;
  seated_at: number | null;
  cancelled_at: number | null;
}

/** Entries of a venue that joined, were seated or ended in [from, to): timings only, no personal data. */
export async function listDayEntries(db: Executor, venueId: string, from: number, to: number): Promise<DayEntryRow[]> {
  const rows = await db
    .selectFrom('entries')
    .select(['status', 'cancel_reason', 'created_at', 'seated_at', 'cancelled_at'])
    .where('venue_id', '=', venueId)
    .where((eb) =>
      eb.or([
        eb.and([eb('created_at', '>=', from), eb('created_at', '<', to)]),
        eb.and([eb('seated_at', '>=', from), eb('seated_at', '<', to)]),
        eb.and([eb('cancelled_at', '>=', from), eb('cancelled_at', '<', to)]),
      ]),
    )
    .execute();
  // PostgreSQL bigint may arrive as a string when a driver parser is not set: normalise.
  return rows.map((r) => ({
    status: r.status,
    cancel_reason: r.cancel_reason,
    created_at: Number(r.created_at),
    seated_at: r.seated_at === null ? null : Number(r.seated_at),
    cancelled_at: r.cancelled_at === null ? null : Number(r.cancelled_at),
  }));
}
