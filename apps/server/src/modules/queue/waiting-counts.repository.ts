import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database } from '../../db/types.js';

/**
 * The counts the triggers keep from `entries` (migration 011), `venue_open_counts`: the only
 * place that reads them (docs/ARCHITECTURE.md habit 3); no code
 * writes them.
 */

type Executor = Kysely<Database>;

type OpenCount = { band: number; priority: number; status: string; n: number };

// Compiled once (db/compiled-once.ts): every join reads it (docs/decisions/042-cheaper-joins.md).
// The venue's rows as the primary key holds them, summed here: a `group by band` in SQL made
// SQLite sort them in a temporary b-tree first, 14 µs of a join's 34 for a handful of rows
// (docs/decisions/064-a-join-with-fewer-writes.md).
const openCounts = compiledOnce<{ venueId: string }, OpenCount>((db, arg) =>
  db.selectFrom('venue_open_counts').select(['band', 'priority', 'status', 'n']).where('venue_id', '=', arg('venueId')).compile(),
);

const openCountsOf = async (trx: Executor, venueId: string): Promise<OpenCount[]> => (await openCounts(trx, { venueId })).rows;

/**
 * The place of a venue's newest entry of this priority: every party waiting at this priority or a
 * higher one, itself included (it joined last). Kept by triggers with every change of an entry
 * (migration 011), so no count walks the queue. Read it in the join's transaction, after the insert.
 */
export async function placeOfNewest(trx: Executor, venueId: string, priority: number): Promise<number> {
  let place = 0;
  for (const row of await openCountsOf(trx, venueId)) if (row.status === 'active' && row.priority >= priority) place += Number(row.n);
  return place;
}

/**
 * What stands before a newcomer of this band and priority, from the counts the triggers keep
 * (migration 011), not from the queue: read in the join's transaction, before its insert. Per band
 * too: the estimate counts those of the bands that share its tables (estimator.ts).
 */
export async function countBeforeNewcomer(
  trx: Executor,
  venueId: string,
  band: number,
  priority: number,
): Promise<{
  ahead: number;
  aheadInBand: number;
  called: number;
  calledInBand: number;
  /** Every party waiting at the venue, of any priority: with `called`, its open parties. */
  waiting: number;
  aheadByBand: number[];
  calledByBand: number[];
}> {
  const aheadByBand: number[] = [];
  const calledByBand: number[] = [];
  let ahead = 0;
  let called = 0;
  let waiting = 0;
  for (const row of await openCountsOf(trx, venueId)) {
    const b = Number(row.band);
    if (!(b >= 0)) continue;
    // Every band with a row has its place in both lists (as entries.repository.ts `byBand` gives them).
    while (aheadByBand.length <= b) aheadByBand.push(0);
    while (calledByBand.length <= b) calledByBand.push(0);
    const n = Number(row.n);
    if (row.status === 'active') {
      waiting += n;
      if (row.priority >= priority) {
        aheadByBand[b] = aheadByBand[b]! + n;
        ahead += n;
      }
    } else if (row.status === 'called') {
      calledByBand[b] = calledByBand[b]! + n;
      called += n;
    }
  }
  return {
    ahead,
    aheadInBand: aheadByBand[band] ?? 0,
    called,
    calledInBand: calledByBand[band] ?? 0,
    waiting,
    aheadByBand,
    calledByBand,
  };
}
