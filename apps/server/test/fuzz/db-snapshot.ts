import { createHash } from 'node:crypto';
import type { Db } from '../../src/db/connect.js';
import type { Database } from '../../src/db/types.js';

/** Every application table of the store, found at run time so a new table is watched too. */
export async function listTables(db: Db): Promise<string[]> {
  const tables = await db.kysely.introspection.getTables();
  return tables
    .filter((t) => !t.isView && !t.name.startsWith('kysely_migration') && (!db.schema || t.schema === db.schema))
    .map((t) => t.name)
    .sort();
}

export type Snapshot = Map<string, string[]>;

const cell = (value: unknown): unknown => (Buffer.isBuffer(value) ? `bytes:${createHash('sha256').update(value).digest('hex')}` : value);

/** All rows of all tables, each row as sorted JSON (row order of a scan is not a promise). */
export async function snapshot(db: Db, tables: string[]): Promise<Snapshot> {
  const all = await Promise.all(
    tables.map(async (table) => {
      // Any table, typed or not: the names come from the database itself.
      const rows = (await db.kysely
        .selectFrom(table as keyof Database)
        .selectAll()
        .execute()) as Record<string, unknown>[];
      return [table, rows.map((row) => JSON.stringify(Object.entries(row).map(([k, v]) => [k, cell(v)]))).sort()] as const;
    }),
  );
  return new Map(all);
}

/** Allowed changes of one refused answer: columns (`table.column`) or whole tables. */
export interface Allowance {
  tables?: string[];
  columns?: string[];
}

function dropColumns(rowJson: string, table: string, columns: string[]): string {
  const skip = new Set(columns.filter((c) => c.startsWith(`${table}.`)).map((c) => c.slice(table.length + 1)));
  if (skip.size === 0) return rowJson;
  return JSON.stringify((JSON.parse(rowJson) as [string, unknown][]).filter(([k]) => !skip.has(k)));
}

/** The tables that differ between two snapshots, with a short account of the first difference. */
export function diffSnapshots(before: Snapshot, after: Snapshot, allowed: Allowance = {}): string[] {
  const differences: string[] = [];
  for (const [table, rowsBefore] of before) {
    if (allowed.tables?.includes(table)) continue;
    const columns = allowed.columns ?? [];
    const a = rowsBefore.map((r) => dropColumns(r, table, columns)).sort();
    const b = (after.get(table) ?? []).map((r) => dropColumns(r, table, columns)).sort();
    if (a.length !== b.length || a.some((row, i) => row !== b[i])) {
      const gone = a.filter((row) => !b.includes(row)).slice(0, 1);
      const added = b.filter((row) => !a.includes(row)).slice(0, 1);
      differences.push(`${table}: ${a.length} -> ${b.length} rows; was ${gone.join('') || '-'}; now ${added.join('') || '-'}`);
    }
  }
  return differences;
}
