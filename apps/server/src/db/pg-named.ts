import pg from 'pg';

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
type Results = pg.QueryResult | pg.QueryResult[];

/**
 * A statement sent with the BEGIN before it, in one write and before one Sync of the extended
 * protocol (Parse, Bind and Execute of the BEGIN, then the statement's own messages): one round
 * trip for both. PostgreSQL runs them in order as if sent apart; node-postgres answers each one's
 * result, the statement's last.
 */
class BeginThen extends pg.Query {
  constructor(
    private readonly begin: string,
    config: pg.QueryConfig,
    callback: (error: Error | undefined, results: Results) => void,
  ) {
    super(config, undefined, callback);
  }
  /** Always the extended protocol, the only one that puts two statements before one Sync. */
  requiresPreparation(): boolean {
    return true;
  }
  prepare(connection: PgConnection): void {
    connection.parse({ text: this.begin, name: '', types: [] });
    connection.bind({ portal: '', statement: '', values: [] });
    connection.execute({ portal: '', rows: 0 });
    super.prepare(connection);
  }
}

/** What of node-postgres's connection (lib/connection.js) BeginThen and the check of prepared names use. */
interface PgConnection {
  parse(config: { text: string; name: string; types: unknown[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[] }): void;
  execute(config: { portal: string; rows: number }): void;
  parsedStatements: Record<string, string | undefined>;
}
declare module 'pg' {
  interface Query {
    requiresPreparation(): boolean;
    prepare(connection: unknown): void;
  }
}

/**
 * Makes each connection of `pool` run the named texts as prepared statements (unless `named` is
 * false): Kysely's driver calls `client.query(text, values)`, which becomes
 * `client.query({ name, text, values })`.
 *
 * `beginWithFirst` (the default): a transaction's BEGIN waits for its first statement and goes
 * with it (BeginThen), one round trip less per transaction: on a busy machine each costs a write
 * that wakes PostgreSQL and a read that wakes us (docs/decisions/072-begin-with-the-first-statement.md).
 * A transaction that ends before any statement sends nothing at all.
 */
export function nameStatementsOf(pool: pg.Pool, options: { named?: boolean; beginWithFirst?: boolean } = {}): void {
  const beginWithFirst = options.beginWithFirst !== false;
  const naming = options.named !== false;
  if (!naming && !beginWithFirst) return;
  /** Each connection's BEGIN not yet sent. */
  const pending = new WeakMap<pg.PoolClient, string>();
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    const connection = (client as unknown as { connection: PgConnection }).connection;
    // node-postgres runs a connection's queries in the order they are given: this is the state
    // each one meets.
    let inTransaction = false;
    /** Runs `text`, with the BEGIN still to send if there is one. */
    const send = (config: pg.QueryConfig): Promise<unknown> => {
      const begin = pending.get(client);
      if (begin === undefined) return query(config);
      pending.delete(client);
      // A statement not yet prepared on this connection goes after its own round trip of the
      // BEGIN: node-postgres would take the BEGIN's ParseComplete for the statement's. So does a
      // text without values, which may hold several statements (the extended protocol takes one).
      const prepared = config.name === undefined || connection.parsedStatements[config.name] !== undefined;
      if (!prepared || !config.values?.length) return query(begin, []).then(() => query(config));
      return new Promise((resolve, reject) => {
        void client.query(
          new BeginThen(begin, config, (error, results) => {
            if (error) reject(error);
            else resolve(Array.isArray(results) ? results[results.length - 1] : results);
          }),
        );
      });
    };
    (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values)) {
        const begin = pending.get(client);
        if (begin === undefined) return query(...args);
        pending.delete(client);
        return query(begin, []).then(() => query(...args));
      }
      if (BEGINS.test(text)) {
        inTransaction = true;
        if (beginWithFirst && values.length === 0) {
          pending.set(client, text);
          return Promise.resolve(NOTHING_YET('BEGIN'));
        }
      } else if (ENDS.test(text)) {
        inTransaction = false;
        // Nothing ran since the BEGIN: there is no transaction to end.
        if (pending.delete(client)) return Promise.resolve(NOTHING_YET(/^\s*rollback/i.test(text) ? 'ROLLBACK' : 'COMMIT'));
      }
      const named = naming ? names.get(text) : undefined;
      if (named === undefined || (named.wide && inTransaction)) return send({ text, values });
      const outside = !inTransaction;
      return send({ name: named.name, text, values }).catch((error: unknown) => {
        if (!isPlanChanged(error)) throw error;
        if (names.get(text) === named) names.delete(text);
        // Refused before it ran: outside a transaction the same statement goes again, unnamed.
        if (outside) return query(text, values);
        throw error;
      });
    };
  });
  // A connection handed back with its BEGIN unsent opened no transaction: the next user starts clean.
  pool.on('release', (_error: Error | undefined, client: pg.PoolClient) => pending.delete(client));
}

/** What a BEGIN, COMMIT or ROLLBACK not sent answers: as PostgreSQL's own. */
const NOTHING_YET = (command: string) => ({ command, rowCount: null, oid: 0, fields: [], rows: [] });
