import { type CompiledQuery, type Kysely, PostgresAdapter, type QueryResult } from 'kysely';
import { straightRunOf } from './direct-sqlite.js';
import { nameStatement } from './pg-named.js';
import type { Database } from './types.js';

type Executor = Kysely<Database>;

/** Where a statement compiled once takes one of its arguments (`arg('venueId')`). */
class Arg {
  constructor(readonly name: string) {}
}

interface Kept {
  sql: string;
  /** Each parameter of the compiled statement: an argument's name, or a value the query fixed. */
  slots: readonly (Arg | { value: unknown })[];
  compiled: CompiledQuery;
}

/**
 * A query the hot paths run many times (a diner's join, docs/decisions/042-cheaper-joins.md), built
 * and compiled by Kysely once per store dialect instead of on every run: `build` receives `arg`,
 * which marks where each argument goes, and each run only fills the arguments in. A query's shape
 * must not depend on its arguments; one whose shape varies (the columns an insert sets) names its
 * shape with `shapeOf`, and each shape is compiled once. The same SQL text each time also finds
 * its prepared statement at once (db/statement-cache.ts).
 */
export function compiledOnce<A extends object, R = unknown>(
  build: (db: Executor, arg: <K extends keyof A & string>(name: K) => A[K], args: A) => CompiledQuery<R>,
  shapeOf?: (args: A) => string,
): (db: Executor, args: A) => Promise<QueryResult<R>> {
  // By the dialect's adapter: each store kind renders its own SQL (placeholders, locking clauses).
  const byAdapter = new WeakMap<object, Map<string, Kept>>();
  return (db, args) => {
    const adapter = db.getExecutor().adapter;
    if (eachTime.has(adapter)) return db.executeQuery(build(db, (name) => args[name], args));
    let kept = byAdapter.get(adapter);
    if (!kept) byAdapter.set(adapter, (kept = new Map()));
    const shape = shapeOf ? shapeOf(args) : '';
    let query = kept.get(shape);
    if (!query) {
      const compiled = build(db, (name) => new Arg(name) as never, args);
      query = {
        sql: compiled.sql,
        slots: compiled.parameters.map((p) => (p instanceof Arg ? p : { value: p })),
        compiled,
      };
      kept.set(shape, query);
      // PostgreSQL prepares it once per connection (db/pg-named.ts).
      if (adapter instanceof PostgresAdapter) nameStatement(compiled.sql);
    }
    const values = args as Record<string, unknown>;
    const parameters = query.slots.map((slot) => (slot instanceof Arg ? values[slot.name] : slot.value));
    // SQLite, where the connection is certainly this statement's: straight on better-sqlite3 (db/direct-sqlite.ts).
    const straight = straightRunOf(db);
    if (straight) {
      try {
        return Promise.resolve(straight(query.sql, parameters) as QueryResult<R>);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return db.executeQuery<R>({ ...query.compiled, sql: query.sql, parameters });
  };
}

const eachTime = new WeakSet<object>();

/**
 * Bench only (openDb's `compiledOnce: false`, docs/decisions/018-optimisations-that-pay.md): this
 * store's queries are built and compiled by Kysely on every run, the simpler way.
 */
export function compileEachTime(db: Executor): void {
  eachTime.add(db.getExecutor().adapter);
}

/** The columns a row sets (those not undefined, as Kysely's insert leaves out undefined ones): an insert's shape. */
export function columnsOf(row: object): string {
  const values = row as Record<string, unknown>;
  let shape = '';
  for (const key in values) if (values[key] !== undefined) shape += `${key},`;
  return shape;
}

/**
 * Each column a row sets (not undefined), as the argument of its own name (with `prefix`): the
 * values of an insert or an update whose shape is `columnsOf(row)`.
 */
export function argsOf<R extends object>(arg: (name: never) => unknown, row: R, prefix = ''): R {
  const values: Record<string, unknown> = {};
  for (const key in row) if (row[key] !== undefined) values[key] = arg(`${prefix}${key}` as never);
  return values as R;
}

/** The arguments of a statement with an `in (…)` list, compiled once per length (`listOf`, `lengthOf`). */
export type ListArgs = Record<string, unknown> & { length: number };

/** `values` as arguments `v0`, `v1`, …, with `extra` arguments beside them. */
export function listArgs(values: readonly unknown[], extra: Record<string, unknown> = {}): ListArgs {
  const args: ListArgs = { ...extra, length: values.length };
  for (let i = 0; i < values.length; i++) args[`v${i}`] = values[i];
  return args;
}

/** Where the list's values go in a statement being built (`listArgs`). */
export const listOf = (arg: (name: string) => unknown, length: number): never => Array.from({ length }, (_, i) => arg(`v${i}`)) as never;

/** The shape of a statement with one `in (…)` list: its length. */
export const lengthOf = (args: { length: number }): string => String(args.length);
