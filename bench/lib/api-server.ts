// The server side of bench/api.bench.ts, in a process of its own (forked with IPC): the real app
// (buildApp on SQLite), built as main.ts builds it or with one kept optimisation swapped for its
// simpler way (docs/decisions/018-optimisations-that-pay.md), so both run in the same bench run.
// BENCH_VARIANT: one of api-variants.ts.
// Answers {ready, port} once listening; ends on {cmd:'stop'}.
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrateToLatest, openDb } from '../../apps/server/src/db/connect.js';
import * as oneIndexMigration from '../../apps/server/src/db/migrations/019-one-phone-index.js';
import * as partialIndexesMigration from '../../apps/server/src/db/migrations/020-partial-indexes.js';
import { API_VARIANTS, type ApiVariant } from './api-variants.js';

const variant = (process.env.BENCH_VARIANT ?? 'app') as ApiVariant;
if (!API_VARIANTS.includes(variant)) throw new Error(`unknown BENCH_VARIANT ${variant}`);

const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' });
const db = openDb(config.database, {
  ...(variant === 'noStatementCache' ? { statementCache: false as const } : {}),
  ...(variant === 'oneTransactionPerJoin' ? { groupCommit: false as const } : {}),
  ...(variant === 'compiledEachTime' ? { compiledOnce: false as const } : {}),
  ...(variant === 'subjournalOnDisk' ? { subjournalInMemory: false as const } : {}),
  ...(variant === 'throughKysely' ? { straightToSqlite: false as const } : {}),
});
await migrateToLatest(db);
// The index migration 019 dropped, as its own down() makes it again.
if (variant === 'twoPhoneIndexes') await oneIndexMigration.down(db.kysely);
// The partial indexes of migration 020 whole again, as its own down() makes them.
if (variant === 'wholeIndexes') await partialIndexesMigration.down(db.kysely);
const bench =
  variant === 'noKeptPositions'
    ? { bench: { keptPositions: false as const } }
    : variant === 'noSharedForecast'
      ? { bench: { sharedForecast: false as const } }
      : variant === 'notifierOwnCommits'
        ? { bench: { notifierInBatch: false as const } }
        : variant === 'noJoinTail'
          ? { bench: { joinTail: false as const } }
          : variant === 'helmetEachRequest'
            ? { bench: { securityHeadersOnce: false as const } }
            : variant === 'noRebase'
              ? { bench: { rebase: false as const } }
              : {};
const app = await buildApp({ config, db, ...bench });
await app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });

process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'stop')
    void app
      .close()
      .then(() => db.close())
      .then(() => process.exit(0));
});
process.send?.({ ready: true, port: (app.server.address() as { port: number }).port });
