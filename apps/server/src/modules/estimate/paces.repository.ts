import type { Kysely } from 'kysely';
import type { Database, PaceRow, PaceSlotRow } from '../../db/types.js';
import { type PaceBook, newMemo, slotOf } from './estimator.js';

/**
 * The estimator's tables, `venue_pace` and `venue_pace_slots` (estimator.ts): the only place with
 * their SQL (docs/ARCHITECTURE.md habit 3). One file for both: a slot row is a pace row's history
 * by hour of the week, always read and written with it.
 */

type Executor = Kysely<Database>;

/**
 * The estimator's rows of a venue at `now` (estimator.ts): its rows and this hour of the week's
 * history, with the memo its quotes share. The seat reads them to learn; a quote reads them through
 * `findBook` (floor-events.ts), which adds the floor.
 */
export async function findPaceRows(db: Executor, venueId: string, now: number): Promise<PaceBook> {
  const slot = slotOf(now);
  const [paces, slots] = await Promise.all([
    db.selectFrom('venue_pace').selectAll().where('venue_id', '=', venueId).execute(),
    db.selectFrom('venue_pace_slots').selectAll().where('venue_id', '=', venueId).where('slot', '=', slot).execute(),
  ]);
  return { paces, slots, slot, at: now, memo: newMemo(paces) };
}

export async function upsertPace(db: Executor, row: PaceRow): Promise<void> {
  const { venue_id: _venue, band: _band, ...learned } = row;
  await db
    .insertInto('venue_pace')
    .values(row)
    .onConflict((oc) => oc.columns(['venue_id', 'band']).doUpdateSet(learned))
    .execute();
}

export async function upsertPaceSlot(db: Executor, row: PaceSlotRow): Promise<void> {
  await db
    .insertInto('venue_pace_slots')
    .values(row)
    .onConflict((oc) => oc.columns(['venue_id', 'slot', 'band']).doUpdateSet({ service_ms: row.service_ms, samples: row.samples }))
    .execute();
}
