import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createPrivateFile, temporaryNextTo } from '../lib/private-file.js';
import { migrations } from './migrations/index.js';

/**
 * The SQLite store as a file: an online copy of it, what a copy holds, and putting a copy in its
 * place (docs/decisions/024-backups-and-personal-data.md). Plain better-sqlite3, not Kysely: the
 * backup API and the file's own checks are below the query layer.
 */

/** Pages per backup step: small steps let the server's writes in between (WAL: they never wait on us). */
const PAGES_PER_STEP = 256;

/** Removes a file and the WAL companions SQLite may have left next to it. */
function removeWithCompanions(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
}

function fsyncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Copies `db` into `temporary` with SQLite's backup API and closes `db`; the copy is made a single
 * file (journal_mode DELETE). It holds personal data: `temporary` is created 0600 before a page is
 * copied, and SQLite gives its journal the same mode (lib/private-file.ts). A copy that fails leaves
 * no file behind.
 */
async function copyToSingleFile(db: SQLite.Database, temporary: string, options?: SQLite.BackupOptions): Promise<void> {
  try {
    createPrivateFile(temporary);
    await db.backup(temporary, options);
  } catch (error) {
    removeWithCompanions(temporary);
    throw error;
  } finally {
    db.close();
  }
  const copy = new SQLite(temporary);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/**
 * Copies the live database at `source` into `destination` with SQLite's online backup, page by
 * page beside the server's writes: a step reads one consistent snapshot, and a write by another
 * connection between steps makes SQLite start the copy again. After a restart the rest goes in
 * one step (one read snapshot, which a WAL writer does not wait on), so a busy server cannot keep
 * the copy from finishing. The copy is written under a temporary name, made a single file
 * (journal_mode DELETE) and renamed into place.
 */
export async function backupSqliteFile(source: string, destination: string): Promise<void> {
  const temporary = temporaryNextTo(destination, 'backup');
  // Read-write but only read: a read-only connection to a WAL database needs its -shm file already there.
  const db = new SQLite(source, { fileMustExist: true });
  let lastRemaining = Number.POSITIVE_INFINITY;
  let restarted = false;
  await copyToSingleFile(db, temporary, {
    progress: ({ remainingPages }) => {
      if (remainingPages > lastRemaining) restarted = true;
      lastRemaining = remainingPages;
      return restarted ? 0x7fffffff : PAGES_PER_STEP;
    },
  });
  const fd = fs.openSync(temporary, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(temporary, destination);
  fsyncDirectory(path.dirname(destination));
}

export interface SqliteFileSummary {
  bytes: number;
  /** `ok`, or the first problems integrity_check found. */
  integrity: string;
  tables: number;
  entries: number;
  venues: number;
  /** The migrations the file went through, in order. */
  migrations: string[];
}

/** Why a file cannot be a store of this Vez, or undefined when it can. */
export function problemWithStoreFile(summary: SqliteFileSummary): string | undefined {
  if (summary.integrity !== 'ok') return `it fails SQLite's integrity check (${summary.integrity})`;
  if (summary.migrations.length === 0) return 'it has no Vez migrations table: it is not a Vez store';
  const unknown = summary.migrations.filter((name) => !(name in migrations));
  if (unknown.length > 0) return `it was made by a newer Vez (migrations this code does not know: ${unknown.join(', ')})`;
  return undefined;
}

/** Opens a file read-only and says what it holds; throws when it is not a SQLite database at all. */
export function inspectSqliteFile(file: string): SqliteFileSummary {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .slice(0, 3)
      .join('; ');
    const tableNames = new Set(
      (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    const count = (table: string) =>
      tableNames.has(table) ? (db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n : 0;
    const applied = tableNames.has('kysely_migration')
      ? (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((row) => row.name)
      : [];
    const appTables = [...tableNames].filter((name) => !name.startsWith('kysely_'));
    return {
      bytes: fs.statSync(file).size,
      integrity,
      tables: appTables.length,
      entries: count('entries'),
      venues: count('venues'),
      migrations: applied,
    };
  } finally {
    db.close();
  }
}

/**
 * Whether another connection (a running server) has the database open. Leaving WAL mode needs
 * the database to itself: while anyone else has it open, SQLite keeps it in WAL. Done only on a
 * store about to be replaced: it also folds the WAL into the file, which a restore wants anyway.
 */
export function isOpenElsewhere(file: string): boolean {
  const db = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    const mode = db.pragma('journal_mode', { simple: true });
    if (mode !== 'wal') return false;
    try {
      return db.pragma('journal_mode = DELETE', { simple: true }) === 'wal';
    } catch {
      return true; // busy: someone else holds a lock
    }
  } finally {
    db.close();
  }
}

/**
 * Copies `source` (a backup) to a temporary file next to `target`, with the backup API so a copy
 * that still has a WAL beside it comes whole. Returns the temporary file, for the caller to check
 * and then `replaceSqliteFile` or `discardSqliteFile`.
 */
export async function stageSqliteCopy(source: string, target: string): Promise<string> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temporary = temporaryNextTo(target, 'restore');
  await copyToSingleFile(new SQLite(source, { readonly: true, fileMustExist: true }), temporary);
  return temporary;
}

export const discardSqliteFile = removeWithCompanions;

/**
 * Puts the staged copy in the target's place: the target's stale WAL and shared-memory files go
 * first (a WAL left beside another database would be replayed into it), then one atomic rename.
 */
export function replaceSqliteFile(staged: string, target: string): void {
  const fd = fs.openSync(staged, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
  fs.renameSync(staged, target);
  fsyncDirectory(path.dirname(target));
}
