import { type Kysely, sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database } from '../../db/types.js';
import { byBand } from './entries.repository.js';

/**
 * The counts the triggers keep from `entries` (migrations 005 and 011), `venue_waiting` and
 * `venue_open_counts`: the only place that reads them (docs/ARCHITECTURE.md habit 3); no code
 * writes them.
 */

type Executor = Kysely<Database>;

/**
 * The place of a venue's newest entry of this priority: every party waiting at this priority or a
 * higher one, itself included (it joined last). One row per priority, kept by triggers with every
 * change of an entry (migration 005), so no count walks the queue. Read it in the join's
 * transaction, after the insert.
 */
export async function placeOfNewest(trx: Executor, venueId: string, priority: number): Promise<number> {
  const row = await trx
    .selectFrom('venue_waiting')
    .select((eb) => eb.fn.sum<number | string>('waiting').as('n'))
    .where('venue_id', '=', venueId)
    .where('priority', '>=', priority)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// Compiled once (db/compiled-once.ts): every join reads it (docs/decisions/042-cheaper-joins.md).
const openCounts = compiledOnce<
  { venueId: string; priority: number },
  Record<'band' | 'ahead' | 'called' | 'waiting', number | string | null>
>((db, arg) =>
  sql<Record<'band' | 'ahead' | 'called' | 'waiting', number | string | null>>`
    select band,
      sum(case when status = 'active' and priority >= ${arg('priority')} then n else 0 end) as ahead,
      sum(case when status = 'active' then n else 0 end) as waiting,
      sum(case when status = 'called' then n else 0 end) as called
    from venue_open_counts where venue_id = ${arg('venueId')}
    group by band
  `.compile(db),
);

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
  const { rows } = await openCounts(trx, { venueId, priority });
  const aheadByBand = byBand(rows, 'ahead');
  const calledByBand = byBand(rows, 'called');
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    ahead: sum(aheadByBand),
    aheadInBand: aheadByBand[band] ?? 0,
    called: sum(calledByBand),
    calledInBand: calledByBand[band] ?? 0,
    waiting: sum(byBand(rows, 'waiting')),
    aheadByBand,
    calledByBand,
  };
}
