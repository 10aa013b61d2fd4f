import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/db/connect.js';
import { inspectSqliteFile } from '../src/db/sqlite-file.js';
import { DEMO_BISTRO_ID, createBody, padWithImages } from './fixtures.js';
import { type ServerProcess, repoRoot, startServerProcess } from './server-process.js';
import { seedUncappedDemo } from './uncapped-demo.js';

// Backups of the SQLite store (docs/product.md §9, docs/decisions/024-backups-and-personal-data.md),
// through `npm run admin`'s entry point, beside a real server process taking joins.

/** Pads the store with images, so the copy takes several backup steps with joins landing between them. */
const PADDING_IMAGES = 6;

function admin(args: string[], databaseUrl: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/admin.ts', ...args],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('admin backup and restore of the SQLite store', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-backup-'));
  const live = path.join(dir, 'live', 'vez.db');
  const copy = path.join(dir, 'copy.db');
  const restored = path.join(dir, 'restored', 'vez.db');
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'copies the store while the server takes joins: every join answered before is in the copy, which is whole',
    { timeout: 180_000 },
    async () => {
      await seedUncappedDemo({ kind: 'sqlite', file: live });
      const db = openDb({ kind: 'sqlite', file: live });
      await padWithImages(db, PADDING_IMAGES);
      await db.close();
      const server = await startServerProcess({
        DATABASE_URL: `file:${live}`,
        RATE_LIMIT_JOINS_PER_10_MIN: '100000',
        RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000',
      });
      servers.push(server);

      const acked: string[] = [];
      let failed = 0;
      let joining = true;
      const joiner = async () => {
        while (joining) {
          const res = await fetch(`${server.url}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(createBody()),
          });
          if (res.status === 201) acked.push(((await res.json()) as { _id: string })._id);
          else failed += 1;
        }
      };
      const joiners = Array.from({ length: 4 }, joiner);
      while (acked.length < 50) await new Promise((r) => setTimeout(r, 20));

      const before = [...acked];
      const backup = await admin(['backup', copy], `file:${live}`);
      const during = acked.length - before.length;
      // Some more joins after the copy, then stop.
      const target = acked.length + 20;
      while (acked.length < target) await new Promise((r) => setTimeout(r, 20));
      joining = false;
      await Promise.all(joiners);

      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(
        new RegExp(`^Wrote ${copy}: \\d+ bytes, \\d+ tables, \\d+ entries at 2 venues, migrations up to \\S+; integrity check ok\\.\\n$`),
      );
      expect(failed).toBe(0);
      // The server kept answering joins while the copy was taken.
      expect(during).toBeGreaterThan(0);

      const summary = inspectSqliteFile(copy);
      expect(summary.integrity).toBe('ok');
      expect(fs.existsSync(`${copy}-wal`)).toBe(false);
      expect(before.filter((id) => !idsIn(copy).has(id))).toEqual([]);
      const inCopy = new SQLite(copy, { readonly: true });
      const images = (inCopy.prepare('select count(*) as n from images').get() as { n: number }).n;
      // The copy is one moment of the store: the tickets run 1..n with no gap.
      const seqs = inCopy.prepare('select seq from entries where venue_id = ? order by seq').all(DEMO_BISTRO_ID) as { seq: number }[];
      inCopy.close();
      expect(images).toBe(PADDING_IMAGES);
      expect(seqs.map((r) => r.seq)).toEqual(seqs.map((_, i) => i + 1));

      // An existing file is refused without --force, replaced with it.
      const again = await admin(['backup', copy], `file:${live}`);
      expect(again).toMatchObject({ code: 1, stderr: expect.stringMatching(/already exists: add --force/) });
      expect((await admin(['backup', copy, '--force'], `file:${live}`)).code).toBe(0);
      expect(acked.filter((id) => !idsIn(copy).has(id))).toEqual([]);

      // Restoring over the live store while the server has it open is refused, and touches nothing.
      const entriesLive = acked.length;
      const refused = await admin(['restore', copy, '--force'], `file:${live}`);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/open in another process.*stop it first/) });
      const res = await fetch(`${server.url}/api/waitlists/${acked.at(-1)}/position`);
      expect(res.status).toBe(200);
      expect(acked.length).toBe(entriesLive);
      expect(fs.readdirSync(path.dirname(live)).filter((f) => f.includes('restore'))).toEqual([]);

      // Into a fresh path: a server started there serves every join the copy holds.
      const restore = await admin(['restore', copy], `file:${restored}`);
      expect(restore.stderr).toBe('');
      expect(restore).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Restored .* Start the server on it\.\n$/) });
      expect(fs.readdirSync(path.dirname(restored))).toEqual(['vez.db']);
      const second = await startServerProcess({ DATABASE_URL: `file:${restored}` });
      servers.push(second);
      for (const id of before) {
        const position = await fetch(`${second.url}/api/waitlists/${id}/position`);
        expect(position.status, id).toBe(200);
      }
      // A second restore over it needs --force, and the server stopped.
      expect((await admin(['restore', copy], `file:${restored}`)).stderr).toMatch(/already holds a store.*--force/);
      expect((await admin(['restore', copy, '--force'], `file:${restored}`)).stderr).toMatch(/open in another process/);
      await second.stop('SIGTERM');
      expect((await admin(['restore', copy, '--force'], `file:${restored}`)).code).toBe(0);
    },
  );

  it.each([
    ['a file that is not a database', (f: string) => fs.writeFileSync(f, 'not a database at all'), /not a SQLite database/],
    [
      'a SQLite database that is not a Vez store',
      (f: string) => {
        const other = new SQLite(f);
        other.exec('create table notes (text)');
        other.close();
      },
      /not a Vez store/,
    ],
    [
      'a store made by a newer Vez',
      (f: string) => {
        fs.copyFileSync(copy, f);
        const newer = new SQLite(f);
        newer.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('999-from-the-future', new Date().toISOString());
        newer.close();
      },
      /newer Vez.*999-from-the-future/,
    ],
  ])('restore refuses %s and leaves the target as it was', async (_, make, message) => {
    const file = path.join(dir, `bad-${randomBytes(3).toString('hex')}.db`);
    make(file);
    const target = path.join(dir, `target-${randomBytes(3).toString('hex')}`, 'vez.db');
    const result = await admin(['restore', file], `file:${target}`);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(message) });
    expect(fs.existsSync(path.dirname(target))).toBe(false);
  });
});

/** The entry ids a copy holds. */
function idsIn(file: string): Set<string> {
  const db = new SQLite(file, { readonly: true });
  try {
    return new Set((db.prepare('select id from entries').all() as { id: string }[]).map((r) => r.id));
  } finally {
    db.close();
  }
}
