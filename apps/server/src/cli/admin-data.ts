import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import {
  backupSqliteFile,
  discardSqliteFile,
  inspectSqliteFile,
  isOpenElsewhere,
  problemWithStoreFile,
  replaceSqliteFile,
  stageSqliteCopy,
} from '../db/sqlite-file.js';
import { writePrivateFile } from '../lib/private-file.js';
import {
  type PersonalData,
  countPersonalData,
  erasePerson,
  findPersonalData,
  personKeys,
} from '../modules/privacy/personal-data.service.js';
import type { AdminIo } from './admin-commands.js';

/**
 * Backups and a person's data from the command line (docs/product.md §9,
 * docs/decisions/024-backups-and-personal-data.md).
 */

export const dataUsage = `  backup <file> [--force]
      an online copy of the SQLite store, taken while the server runs; refuses an existing file
      unless --force. PostgreSQL: pg_dump -Fc (docs/decisions/024-backups-and-personal-data.md)
  restore <file> [--force]
      checks the copy (a Vez store this code knows, whole) and puts it in place of the SQLite store
      (DATABASE_URL). Stop the server first: it refuses while another process has the store open,
      and refuses to replace an existing store unless --force. PostgreSQL: pg_restore
  person --phone <phone> | --email <email> [--export <file> [--force]] [--erase]
      counts what the store holds about a person (entries, messages, accounts, codes, push
      subscriptions, staff accounts); --export writes all of it as JSON, --erase erases it in one
      transaction (an SMS opt-out is kept: docs/decisions/024)`;

const POSTGRES_TOOLS =
  'On PostgreSQL, back up and restore with its own tools: pg_dump -Fc "$DATABASE_URL" -f vez.dump, and pg_restore ' +
  '--clean --if-exists -d "$DATABASE_URL" vez.dump with the server stopped (docs/decisions/024-backups-and-personal-data.md).';

type Database = Config['database'];

/** The SQLite file of the store, or a refusal naming PostgreSQL's tools. */
function sqliteFileOf(database: Database | undefined, command: string): string {
  if (!database) throw new Error(`${command} needs to know where the store is (DATABASE_URL).`);
  if (database.kind === 'postgres') throw new Error(`${command} copies the SQLite store only. ${POSTGRES_TOOLS}`);
  return path.resolve(database.file);
}

/** The one file a backup or restore names. */
function fileArgument(args: string[], command: string): { file: string; force: boolean } {
  const { values, positionals } = parseArgs({ args, options: { force: { type: 'boolean' } }, allowPositionals: true });
  if (positionals.length !== 1) throw new Error(`Name exactly one file: npm run admin -- ${command} <file> [--force].`);
  return { file: path.resolve(positionals[0]!), force: values.force === true };
}

const describeStore = (s: ReturnType<typeof inspectSqliteFile>) =>
  `${s.bytes} bytes, ${s.tables} tables, ${s.entries} entries at ${s.venues} venues, migrations up to ${s.migrations.at(-1) ?? '(none)'}`;

async function backupCommand(io: AdminIo, args: string[]): Promise<void> {
  const { file, force } = fileArgument(args, 'backup');
  const source = sqliteFileOf(io.database, 'backup');
  if (file === source) throw new Error('The copy must not be the store itself.');
  if (!fs.existsSync(source)) throw new Error(`There is no store at ${source}.`);
  if (!fs.existsSync(path.dirname(file))) throw new Error(`The directory ${path.dirname(file)} does not exist.`);
  if (fs.existsSync(file) && !force) throw new Error(`${file} already exists: add --force to replace it.`);
  await backupSqliteFile(source, file);
  const summary = inspectSqliteFile(file);
  const problem = problemWithStoreFile(summary);
  if (problem) throw new Error(`The copy at ${file} is not usable: ${problem}.`);
  io.out(`Wrote ${file}: ${describeStore(summary)}; integrity check ok.`);
}

/**
 * Replaces the SQLite store with a backup. The command line runs it without opening the store
 * first (admin.ts): a restore must not create, migrate or hold the file it replaces.
 */
export async function restoreStore(database: Database | undefined, args: string[], out: (line: string) => void): Promise<void> {
  const { file, force } = fileArgument(args, 'restore');
  const target = sqliteFileOf(database, 'restore');
  if (file === target) throw new Error('The backup is the store itself: nothing to restore.');
  if (!fs.existsSync(file)) throw new Error(`There is no file at ${file}.`);
  const replacing = fs.existsSync(target);
  if (replacing && !force) throw new Error(`${target} already holds a store: stop the server and add --force to replace it.`);
  // A refused restore leaves no trace: not even the directory a fresh target would have needed.
  const newDirectory = fs.existsSync(path.dirname(target)) ? undefined : path.dirname(target);
  const undo = () => {
    if (newDirectory) fs.rmSync(newDirectory, { recursive: true, force: true });
  };
  let staged: string;
  try {
    staged = await stageSqliteCopy(file, target);
  } catch (error) {
    undo();
    throw new Error(`${file} is not a SQLite database Vez can read (${error instanceof Error ? error.message : String(error)}).`, {
      cause: error,
    });
  }
  try {
    const summary = inspectSqliteFile(staged);
    const problem = problemWithStoreFile(summary);
    if (problem) throw new Error(`${file} cannot be restored: ${problem}. The store was not touched.`);
    if (replacing && isOpenElsewhere(target)) {
      throw new Error(`${target} is open in another process (a running server?): stop it first. The store was not touched.`);
    }
    replaceSqliteFile(staged, target);
    out(`Restored ${file} into ${target}: ${describeStore(summary)}. Start the server on it.`);
  } catch (error) {
    discardSqliteFile(staged);
    undo();
    throw error;
  } finally {
    discardSqliteFile(staged); // gone already when it was renamed into place
  }
}

/** Shows enough of a phone or an email to tell which was asked, not the whole of it. */
const masked = (value: string) =>
  value.includes('@')
    ? value.replace(/^(.)[^@]*(@.*)$/, '$1***$2')
    : `${value.slice(0, 5)}${'*'.repeat(Math.max(0, value.length - 7))}${value.slice(-2)}`;

function printSummary(io: AdminIo, data: PersonalData): number {
  const counts = countPersonalData(data);
  const who = [...data.keys.phones, ...data.keys.emails].map(masked).join(', ');
  io.out(`Held about ${who}:`);
  let total = 0;
  for (const [table, n] of Object.entries(counts)) {
    if (n === 0) continue;
    total += n;
    io.out(`  ${table.padEnd(30)} ${n}`);
  }
  const venues = new Set(data.entries.map((e) => e.venue_id)).size;
  if (data.entries.length)
    io.out(`  (entries at ${venues} venue(s); ${data.entries.filter((e) => e.status === 'active' || e.status === 'called').length} open)`);
  if (total === 0) io.out('  nothing');
  return total;
}

/** The data subject's copy: times as ISO dates, JSON texts as JSON. */
function exportJson(data: PersonalData, now: number): string {
  const { passportHashes: _, ...rest } = data;
  return `${JSON.stringify(
    { exportedAt: new Date(now).toISOString(), ...rest },
    (key, value: unknown) => {
      if (key.endsWith('_at') && typeof value === 'number') return new Date(value).toISOString();
      if ((key === 'venue_messages' || key === 'event_body') && typeof value === 'string') {
        try {
          return JSON.parse(value) as unknown;
        } catch {
          return value;
        }
      }
      return value;
    },
    2,
  )}\n`;
}

async function personCommand(io: AdminIo, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      phone: { type: 'string' },
      email: { type: 'string' },
      export: { type: 'string' },
      erase: { type: 'boolean' },
      force: { type: 'boolean' },
    },
  });
  const keys = personKeys(values);
  const exportFile = values.export ? path.resolve(values.export) : undefined;
  if (exportFile && fs.existsSync(exportFile) && !values.force) throw new Error(`${exportFile} already exists: add --force to replace it.`);
  if (exportFile && !fs.existsSync(path.dirname(exportFile))) throw new Error(`The directory ${path.dirname(exportFile)} does not exist.`);
  const now = (io.now ?? Date.now)();
  const data = await findPersonalData(io.db.kysely, keys);
  printSummary(io, data);
  if (exportFile) {
    const json = exportJson(data, now);
    // Personal data: readable by its owner only, also when --force replaces a wider file.
    writePrivateFile(exportFile, json);
    io.out(`Wrote everything above to ${exportFile} (${Buffer.byteLength(json)} bytes).`);
  }
  if (values.erase) {
    const result = await erasePerson(io.db, keys, now);
    // Their console streams close on every instance, as after staff:remove (docs/security.md).
    for (const staff of result.erased.staffAccounts) io.tellStaffNews?.({ kind: 'sessions-ended', staffId: staff.id });
    const erased = countPersonalData(result.erased);
    const { sms_opt_outs: kept, ...gone } = erased;
    const lines = Object.entries(gone).filter(([, n]) => n > 0);
    io.out(lines.length ? `Erased: ${lines.map(([table, n]) => `${table} ${n}`).join(', ')}.` : 'Nothing to erase.');
    if (data.entries.length) io.out('Entries keep their anonymous counts and times, as retention leaves them.');
    if (kept) io.out(`Kept: ${kept} SMS opt-out (STOP), so nothing is texted to this phone again (docs/decisions/024).`);
    for (const venueId of result.venuesWithoutOwner) {
      io.out(`Venue ${venueId} has no owner now: give it one (create-staff --role owner, or add-staff-venue).`);
    }
  }
}

/** The commands of this file, for runAdmin. */
export function dataCommands(io: AdminIo, args: string[]): Record<string, () => Promise<void>> {
  return {
    backup: () => backupCommand(io, args),
    restore: () => restoreStore(io.database, args, io.out),
    person: () => personCommand(io, args),
  };
}
