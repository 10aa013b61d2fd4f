import path from 'node:path';
import { type ChildProcess, fork } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '../../apps/server/src/lib/v8-flags.js';
/**
 * The servers of bench/api.bench.ts (bench/lib/api-server.ts): the app as shipped, and the app with
 * one kept optimisation swapped for its simpler way (docs/decisions/018-optimisations-that-pay.md).
 * noSharedForecast: no kept estimate, each reader works out its venue's forecast itself (docs/decisions/038-one-forecast-per-change.md).
 * notifierOwnCommits: the message worker's outbox writes in commits of their own, and a claim every
 * round (docs/decisions/039-notifier-rides-the-write-batch.md).
 * noJoinTail: a join at the end of a busy venue's queue is forecast with the queue up to it, not
 * placed on the tail of the kept forecast (docs/decisions/043-busy-venue-joins.md).
 * compiledEachTime: Kysely builds and compiles every query of a join on each run, not once
 * (db/compiled-once.ts, docs/decisions/042-cheaper-joins.md).
 * subjournalOnDisk: SQLite's savepoint sub-journals spill to a temporary file, its default, not kept
 * in memory (db/connect.ts, docs/decisions/049-sub-journal-in-memory.md).
 * helmetEachRequest: helmet's middleware built for every request, as @fastify/helmet does, not its
 * headers worked out once (plugins/security.ts, docs/decisions/050-security-headers-once.md).
 * noRebase: a busy venue's kept book, expired, is read and forecast again, never rebased
 * (docs/decisions/047-rebased-books.md).
 * throughKysely: every statement through Kysely's executor, none straight on better-sqlite3
 * (db/direct-sqlite.ts, docs/decisions/058-joins-straight-to-sqlite.md).
 * twoPhoneIndexes: the entries' phone indexed twice again, also by (venue_id, phone, created_at) as
 * before migration 019 (docs/decisions/058-joins-straight-to-sqlite.md).
 * wholeIndexes: the three partial indexes of migration 020 whole again, as its own down() makes them
 * (docs/decisions/062-partial-indexes.md).
 */
export const API_VARIANTS = [
  'app',
  'noKeptPositions',
  'oneTransactionPerJoin',
  'noStatementCache',
  'noSharedForecast',
  'notifierOwnCommits',
  'noJoinTail',
  'compiledEachTime',
  'subjournalOnDisk',
  'helmetEachRequest',
  'noRebase',
  'twoPhoneIndexes',
  'throughKysely',
  'wholeIndexes',
] as const;
export type ApiVariant = (typeof API_VARIANTS)[number];

/** The limits per address that protect production from one address, lifted: a bench is one address by design. */
export const ONE_ADDRESS_LIMITS_LIFTED = {
  RATE_LIMIT_JOINS_PER_10_MIN: '100000000',
  RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000000',
  JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: '100000000',
  RATE_LIMIT_READS_PER_MIN: '100000000',
} as const;

/**
 * One server of api-server.ts for this variant on a SQLite file (seeded by the caller), as operators
 * run it (docs/deploy.md): Node's flags of `npm run serve`, NODE_ENV=production, so answers are
 * not checked against their contract schema (a safety net of development and tests,
 * plugins/contract-schemas.ts, that production does not pay). Answers once it listens.
 */
export async function forkApiServer(variant: ApiVariant, file: string): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(path.join(import.meta.dirname, 'api-server.ts'), [], {
    execArgv: [...SERVER_NODE_FLAGS, '--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: `file:${file}`,
      // The bare route exists in the demo only (docs/security.md, Safe defaults).
      DEMO: '1',
      BENCH_BARE_ROUTE: '1',
      BENCH_VARIANT: variant,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...ONE_ADDRESS_LIMITS_LIFTED,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number }));
    child.once('exit', (code) => reject(new Error(`api-server (${variant}) exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}
