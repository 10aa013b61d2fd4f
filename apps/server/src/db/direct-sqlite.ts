import type { Kysely, QueryResult, SqliteDatabase } from 'kysely';
import type { Database } from './types.js';

/**
 * SQLite statements compiled once (compiled-once.ts) run straight on better-sqlite3 where the
 * connection is certainly theirs, instead of through Kysely's executor
 * (docs/decisions/058-joins-straight-to-sqlite.md). better-sqlite3 runs a statement synchronously;
 * Kysely wraps each in a chain of promises to hand its one connection out in turn (a connection
 * provider, a lock, the driver's own mutex): for a join's ten statements, about a tenth of the
 * join's CPU. The connection is certainly a statement's own:
 * - inside a write batch's transaction (write-batch.ts), which holds the connection from BEGIN to
 *   COMMIT and runs its work one statement at a time;
 * - outside one, when nobody holds the connection: the statement has run before anyone else can ask.
 * Anywhere else (a transaction under way, a read waiting) it goes through Kysely as before.
 */
type Run = (sql: string, parameters: readonly unknown[]) => QueryResult<unknown>;

interface Store {
  run: Run;
  /** Nobody holds the connection and nobody waits for it (sqlite-dialect.ts). */
  isFree(): boolean;
}

const stores = new WeakMap<Kysely<Database>, Store>();
const transactions = new WeakMap<Kysely<Database>, Run>();

/** As Kysely's own SQLite connection runs a compiled query (kysely/dist/esm/dialect/sqlite/sqlite-driver.js). */
function runnerOf(database: SqliteDatabase): Run {
  return (sql, parameters) => {
    const statement = database.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  };
}

/** A SQLite store whose compiled-once statements may run straight (connect.ts). */
export function runsStraight(kysely: Kysely<Database>, database: SqliteDatabase, isFree: () => boolean): void {
  stores.set(kysely, { run: runnerOf(database), isFree });
}

/** A write batch's transaction on `store`, from its BEGIN until its COMMIT or ROLLBACK (write-batch.ts). */
export function holdsConnection(trx: Kysely<Database>, store: Kysely<Database>): void {
  const kept = stores.get(store);
  if (kept) transactions.set(trx, kept.run);
}

export function releasedConnection(trx: Kysely<Database>): void {
  transactions.delete(trx);
}

/** How to run a statement straight on `db` right now, or undefined: through Kysely. */
export function straightRunOf(db: Kysely<Database>): Run | undefined {
  const held = transactions.get(db);
  if (held) return held;
  const store = stores.get(db);
  return store?.isFree() ? store.run : undefined;
}
