import type { Kysely } from 'kysely';
import { argsOf, columnsOf, compiledOnce } from '../../db/compiled-once.js';
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
  const [paces, slots] = await Promise.all([paceRows(db, { venueId }), slotRows(db, { venueId, slot })]);
  return { paces: paces.rows, slots: slots.rows, slot, at: now, memo: newMemo(paces.rows) };
}

/**
 * Their columns, named: the seat reads them inside its transaction, where on PostgreSQL a statement
 * reading `*` is not prepared (db/pg-named.ts). Each record has every key of its row once: the type
 * check fails when a table gains or loses a column.
 */
const PACE_COLUMNS = Object.keys({
  venue_id: 1,
  band: 1,
  service_ms: 1,
  last_seated_at: 1,
  samples: 1,
  fit_w: 1,
  fit_x: 1,
  fit_xx: 1,
  fit_y: 1,
  fit_xy: 1,
  spread_low: 1,
  spread_high: 1,
  quotes: 1,
  cycle: 1,
} satisfies Record<keyof PaceRow, 1>) as (keyof PaceRow)[];
const SLOT_COLUMNS = Object.keys({ venue_id: 1, band: 1, slot: 1, service_ms: 1, samples: 1 } satisfies Record<
  keyof PaceSlotRow,
  1
>) as (keyof PaceSlotRow)[];

// Read by every change's refresh and written by every seat: compiled once (docs/decisions/051-change-path-compiled-once.md).
const paceRows = compiledOnce<{ venueId: string }, PaceRow>((db, arg) =>
  db.selectFrom('venue_pace').select(PACE_COLUMNS).where('venue_id', '=', arg('venueId')).compile(),
);
const slotRows = compiledOnce<{ venueId: string; slot: number }, PaceSlotRow>((db, arg) =>
  db.selectFrom('venue_pace_slots').select(SLOT_COLUMNS).where('venue_id', '=', arg('venueId')).where('slot', '=', arg('slot')).compile(),
);

const paceUpsert = compiledOnce<PaceRow>((db, arg, row) => {
  const values = argsOf(arg, row);
  const { venue_id: _venue, band: _band, ...learned } = values;
  return db
    .insertInto('venue_pace')
    .values(values)
    .onConflict((oc) => oc.columns(['venue_id', 'band']).doUpdateSet(learned))
    .compile();
}, columnsOf);

const slotUpsert = compiledOnce<PaceSlotRow>(
  (db, arg, row) =>
    db
      .insertInto('venue_pace_slots')
      .values(argsOf(arg, row))
      .onConflict((oc) => oc.columns(['venue_id', 'slot', 'band']).doUpdateSet({ service_ms: arg('service_ms'), samples: arg('samples') }))
      .compile(),
  columnsOf,
);

export async function upsertPace(db: Executor, row: PaceRow): Promise<void> {
  await paceUpsert(db, row);
}

export async function upsertPaceSlot(db: Executor, row: PaceSlotRow): Promise<void> {
  await slotUpsert(db, row);
}
