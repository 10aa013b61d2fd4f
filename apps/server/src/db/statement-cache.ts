import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Enough for every distinct query the app compiles; Kysely renders the same SQL for the same query shape. */
const MAX_STATEMENTS = 1_000;

/**
 * better-sqlite3 behind Kysely with prepared statements kept by their SQL text. Kysely prepares
 * every query anew, and on a hot read preparing costs more than running. One connection runs one
 * query at a time (Kysely's SQLite driver holds a lock, also while streaming), so a statement is
 * never in use twice at once; SQLite re-prepares a kept statement itself after a schema change.
 */
export function withStatementCache(database: SQLite.Database, max = MAX_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => void database.close(),
    prepare(sql) {
      const kept = statements.get(sql);
      if (kept) return kept;
      const statement = database.prepare(sql);
      if (statements.size >= max) statements.delete(statements.keys().next().value as string);
      statements.set(sql, statement);
      return statement;
    },
  };
}
