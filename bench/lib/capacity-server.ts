// A server of bench/capacity.bench.ts with one kept optimisation swapped for its simpler way
// (docs/decisions/018-optimisations-that-pay.md), so both run in the same bench run: started as
// apps/server/src/main.ts starts an operator's server (its environment, no demo), with
// CAPACITY_VARIANT naming the way. Ends on SIGTERM.
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrateToLatest, openDb } from '../../apps/server/src/db/connect.js';
import * as partialIndexesMigration from '../../apps/server/src/db/migrations/020-partial-indexes.js';
import { productionFanout } from '../../apps/server/src/modules/realtime/fanout.js';

/**
 * keptBriefly: venues and estimate books kept 2 s whatever is heard, venues read again inside every
 * transaction, books never rebased (venue-cache.ts, pace-cache.ts: docs/decisions/052-venues-kept-while-heard.md,
 * 047-rebased-books.md).
 * checkpointsInCommits: SQLite's own WAL checkpoints, inside the commit that passes 1,000 pages, on
 * the event loop (db/checkpointer.ts, docs/decisions/053-checkpoints-off-the-event-loop.md).
 * nodeDefaults: Node's own heap settings (V8's memory reducer on, 16 MB semi-spaces, four V8 threads): started without the server's Node
 * flags (lib/v8-flags.ts, docs/decisions/056-no-memory-reducer.md).
 * v8Pool4: the server's Node flags but `--v8-pool-size=1`: V8's four helper threads, Node's default
 * (docs/decisions/057-fewer-objects-for-the-collector.md).
 * wholeIndexes: the three partial indexes of migration 020 whole again, as its own down() makes them
 * (docs/decisions/062-partial-indexes.md).
 * outboxEachRound: the message worker claims the outbox on every round, whether or not something
 * waits there (docs/decisions/065-outbox-claimed-when-something-waits.md).
 * pagesEachChange: every diner page written on every change of its venue, even when its message is
 * the one it has (docs/decisions/066-pages-written-when-they-change.md).
 * unnamedStatements: PostgreSQL parses and plans each statement compiled once at every run, as
 * Kysely sends it (db/pg-named.ts, docs/decisions/070-named-statements-on-postgresql.md).
 */
export const CAPACITY_VARIANTS = [
  'keptBriefly',
  'checkpointsInCommits',
  'nodeDefaults',
  'v8Pool4',
  'wholeIndexes',
  'outboxEachRound',
  'pagesEachChange',
  'unnamedStatements',
] as const;
export type CapacityVariant = (typeof CAPACITY_VARIANTS)[number];

const variant = process.env.CAPACITY_VARIANT as CapacityVariant;
if (!CAPACITY_VARIANTS.includes(variant)) throw new Error(`unknown CAPACITY_VARIANT ${variant}`);

const config = loadConfig(process.env);
const db = openDb(
  config.database,
  variant === 'checkpointsInCommits' ? { checkpointsInWorker: false } : variant === 'unnamedStatements' ? { namedStatements: false } : {},
);
await migrateToLatest(db);
if (variant === 'wholeIndexes') await partialIndexesMigration.down(db.kysely);
const bench =
  variant === 'keptBriefly'
    ? { keptVenues: false as const, rebase: false as const }
    : variant === 'outboxEachRound'
      ? { outboxClaimedEachRound: true as const }
      : variant === 'pagesEachChange'
        ? { fanout: { ...productionFanout, writesUnchanged: true } }
        : {};
const app = await buildApp({ config, db, retention: true, bench });
await app.listen({ port: config.PORT, host: config.HOST });
process.on('SIGTERM', () => {
  app.scheduler.stop();
  void app.drain
    .drain()
    .then(() => app.close())
    .then(() => db.close())
    .then(() => process.exit(0));
});
