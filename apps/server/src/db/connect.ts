import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, type MigrationProvider, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { ensurePrivateFile } from '../lib/private-file.js';
import { migrations } from './migrations/index.js';
import { OwnSchemaPostgresDialect } from './schema-introspector.js';
import { nameStatementsOf } from './pg-named.js';
import { type Checkpointer, startCheckpointer } from './checkpointer.js';
import { compileEachTime } from './compiled-once.js';
import { runsStraight } from './direct-sqlite.js';
import { FifoSqliteDialect } from './sqlite-dialect.js';
import { withStatementCache } from './statement-cache.js';
import type { Database } from './types.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema of this store when it is not the default (each test file has its own). */
  schema?: string;
  /** Bench only (openDb's groupCommit: false): each SQLite write in a transaction of its own (db/write-batch.ts). */
  oneTransactionPerWrite?: true;
  /** SQLite: the worker thread that checkpoints its WAL (db/checkpointer.ts). */
  checkpointer?: Checkpointer;
  close(): Promise<void>;
}

// PostgreSQL bigint (int8) arrives as a string by default; our times are epoch ms, safe as numbers.
pg.types.setTypeParser(20, (v) => Number(v));
// double precision and numeric as numbers too.
pg.types.setTypeParser(1700, (v) => Number(v));

/** How long a PostgreSQL connection may stay idle in the pool before it closes. */
const POOL_IDLE_MS = 5 * 60_000;

/** Opens the configured store. SQLite: WAL with synchronous=FULL, so a commit is durable before we answer. */
export function openDb(
  database: Config['database'],
  options: {
    poolSize?: number;
    schema?: string;
    /** Bench only: the simpler ways of SQLite's kept optimisations (docs/decisions/018-optimisations-that-pay.md). */
    statementCache?: false;
    groupCommit?: false;
    compiledOnce?: false;
    subjournalInMemory?: false;
    checkpointsInWorker?: false;
    straightToSqlite?: false;
    /** PostgreSQL: the statements compiled once run unnamed, parsed and planned at each run (db/pg-named.ts). */
    namedStatements?: false;
  } = {},
): Db {
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.file), { recursive: true });
    // A new store holds personal data: 0600 from the start, and SQLite gives its WAL the same mode
    // (lib/private-file.ts). An existing store keeps the mode its operator gave it.
    ensurePrivateFile(database.file);
    const sqlite = new SQLite(database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // The write batch runs each change in a savepoint of a shared transaction (write-batch.ts): SQLite
    // keeps each page's state before the savepoint in a sub-journal, which spills to a temporary
    // file past 64 KiB, a pwrite per page. It only serves rolling a savepoint back, never crash
    // recovery (the WAL does that), so memory is enough (docs/decisions/049-sub-journal-in-memory.md).
    if (options.subjournalInMemory !== false) sqlite.pragma('temp_store = MEMORY');
    // WAL checkpoints run in a worker thread, never inside a commit on the event loop
    // (db/checkpointer.ts, docs/decisions/053-checkpoints-off-the-event-loop.md).
    let checkpointer: Checkpointer | undefined;
    if (options.checkpointsInWorker !== false) {
      sqlite.pragma('wal_autocheckpoint = 0');
      checkpointer = startCheckpointer(database.file);
    }
    const handle = options.statementCache === false ? sqlite : withStatementCache(sqlite);
    const dialect = new FifoSqliteDialect({ database: handle });
    const kysely = new Kysely<Database>({ dialect });
    if (options.compiledOnce === false) compileEachTime(kysely);
    // Compiled-once statements straight on better-sqlite3 where the connection is theirs (db/direct-sqlite.ts).
    if (options.straightToSqlite !== false) runsStraight(kysely, handle, () => dialect.connectionIsFree());
    return {
      kysely,
      dialect: 'sqlite',
      ...(options.groupCommit === false ? { oneTransactionPerWrite: true as const } : {}),
      ...(checkpointer ? { checkpointer } : {}),
      // The worker's connection first: the app's, closing last, checkpoints what is left and removes the WAL.
      close: async () => {
        await checkpointer?.stop();
        await kysely.destroy();
      },
    };
  }
  // A schema of its own: each test file's (openDb's option) or the operator's (DATABASE_SCHEMA).
  const schema = options.schema ?? database.schema;
  const pool = new pg.Pool({
    connectionString: database.url,
    max: options.poolSize ?? 10,
    // pg closes a connection idle for 10 s by default; a busier minute then opens new ones, and a
    // new PostgreSQL backend's first queries load its catalog caches: changes waited a few hundred
    // ms at each rise of the load (bench/capacity.bench.ts, docs/deploy.md "Capacity"). Ten
    // connections per instance held for five idle minutes cost PostgreSQL little.
    idleTimeoutMillis: POOL_IDLE_MS,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries report their own errors.
  });
  // Each connection prepares the statements compiled once the first time it runs them (db/pg-named.ts).
  if (options.namedStatements !== false) nameStatementsOf(pool);
  const kysely = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', ...(schema ? { schema } : {}), close: () => kysely.destroy() };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which: with several test
  // schemas migrating at once, it would find another file's lock table and skip creating its own.
  // An operator's DATABASE_SCHEMA need not exist yet (README, Configuration).
  if (db.dialect === 'postgres' && db.schema) await sql`create schema if not exists ${sql.id(db.schema)}`.execute(db.kysely);
  const migrator = new Migrator({ db: db.kysely, provider, ...(db.schema ? { migrationTableSchema: db.schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`);
  }
}
