import type pg from 'pg';

/**
 * Named prepared statements on PostgreSQL for the statements compiled once (db/compiled-once.ts,
 * docs/decisions/070-named-statements-on-postgresql.md). Sent without a name, each run of a
 * statement makes PostgreSQL parse, analyse and plan it again; with a name, a connection prepares
 * it once and every later run only binds and executes it.
 *
 * The names are kept by SQL text, process-wide: a text always has the same name, so a connection
 * that prepared it once finds it again (node-postgres keeps what each connection prepared). Only
 * texts compiled once are named, a bounded set (MAX_NAMED).
 *
 * A prepared statement fails once its result's columns change: PostgreSQL answers "cached plan must
 * not change result type" when a migration has added a column to a table it reads with `*` (or
 * changed the type of one it names), which is what an instance of the previous version meets
 * during a rolling restart (docs/deploy.md). Such a statement then loses its name in this process;
 * outside a transaction the same run goes again unnamed, and nothing fails. Inside a transaction the
 * error has already ended it, so a statement reading `*` is named only outside one.
 */
interface Named {
  name: string;
  /** Its columns come from `*`: a migration adding a column changes them. */
  wide: boolean;
}

const names = new Map<string, Named>();
/** Names given so far: a name is never given twice, even after its text lost it. */
let given = 0;
/** `*` as a list of columns (`select *`, `"entries".*`, `returning *`), not `count(*)` nor a comment's. */
const ALL_COLUMNS = /(?<=[\s,.])\*(?=[\s,]|$)/;
/**
 * At most this many texts named: the change path's statements are a few dozen, plus one per list
 * length (`listOf`, compiled-once.ts) met. Each connection keeps each it ran, with its plan, in
 * PostgreSQL's memory: this bounds how many.
 */
const MAX_NAMED = 500;
/** What Kysely sends to begin and to end a transaction (a savepoint's rollback ends none). */
const BEGINS = /^\s*(begin|start transaction)\b/i;
const ENDS = /^\s*(commit|end|rollback)\b(?!\s+to\b)/i;

/** PostgreSQL's error when a prepared statement's result columns changed (SQLSTATE 0A000, feature_not_supported). */
const isPlanChanged = (error: unknown): boolean => {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
};

/** Marks `sql`, compiled once for PostgreSQL, to run as a named statement. */
export function nameStatement(sql: string): void {
  if (names.has(sql) || given >= MAX_NAMED) return;
  names.set(sql, { name: `vez_${++given}`, wide: ALL_COLUMNS.test(sql) });
}

/** The name `sql` runs under, if any (tests). */
export const statementNameOf = (sql: string): string | undefined => names.get(sql)?.name;

type QueryFn = (...args: unknown[]) => Promise<unknown>;

/**
 * Makes each connection of `pool` run the named texts as prepared statements: Kysely's driver calls
 * `client.query(text, values)`, which becomes `client.query({ name, text, values })`.
 */
export function nameStatementsOf(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    // node-postgres runs a connection's queries in the order they are given: this is the state
    // each one meets.
    let inTransaction = false;
    (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values)) return query(...args);
      if (BEGINS.test(text)) inTransaction = true;
      else if (ENDS.test(text)) inTransaction = false;
      const named = names.get(text);
      if (named === undefined || (named.wide && inTransaction)) return query(text, values);
      const outside = !inTransaction;
      return query({ name: named.name, text, values }).catch((error: unknown) => {
        if (!isPlanChanged(error)) throw error;
        if (names.get(text) === named) names.delete(text);
        // Refused before it ran: outside a transaction the same statement goes again, unnamed.
        if (outside) return query(text, values);
        throw error;
      });
    };
  });
}
