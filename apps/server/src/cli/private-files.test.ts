import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { padWithImages } from '../../test/fixtures.js';
import { seededStore } from '../../test/harness.js';
import { sqliteStore } from '../../test/stores.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest, openDb } from '../db/connect.js';
import { type AdminIo, runAdmin } from './admin-commands.js';
import { restoreStore } from './admin-data.js';

// Backups, restored and new stores and a person's export hold personal data: readable by their owner
// only from the moment they exist, also over a file that was wider (docs/decisions/024-backups-and-personal-data.md).

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
/** A file an operator left readable by all, to be replaced. */
const wideFile = (file: string) => {
  fs.writeFileSync(file, 'old', { mode: 0o644 });
  fs.chmodSync(file, 0o644);
};

describe('files with personal data are written 0600', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-private-'));
  const store = path.join(dir, 'store', 'vez.db');
  let db: Db;
  beforeAll(async () => {
    const seeded = await seededStore(sqliteStore);
    // A store of a few MB: the backup then goes in several steps, the event loop free between them.
    await padWithImages(seeded, 4);
    fs.mkdirSync(path.dirname(store));
    // Closed first: the last connection folds the WAL into the file, which alone is then the whole store.
    await seeded.close();
    fs.copyFileSync((seeded.location as { file: string }).file, store);
    db = openDb({ kind: 'sqlite', file: store });
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const admin = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: AdminIo = {
      db,
      database: { kind: 'sqlite', file: store },
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      prompt: async () => '',
    };
    const code = await runAdmin(argv, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  /** Runs `work` while watching `folder` between event-loop turns: the widest mode any file had. */
  const widestModeWhile = async (folder: string, work: () => Promise<unknown>) => {
    let widest = 0;
    let done = false;
    const look = () => {
      for (const name of fs.readdirSync(folder)) {
        try {
          widest |= modeOf(path.join(folder, name));
        } catch {
          // renamed or removed between readdir and stat
        }
      }
      if (!done) setImmediate(look);
    };
    look();
    try {
      await work();
    } finally {
      done = true;
    }
    look();
    return widest;
  };

  it('backup: the copy is 0600 while it is written and once in place', async () => {
    const folder = path.join(dir, 'backups');
    fs.mkdirSync(folder);
    const file = path.join(folder, 'copy.db');
    let result: Awaited<ReturnType<typeof admin>> | undefined;
    const widest = await widestModeWhile(folder, async () => (result = await admin(['backup', file])));
    expect(result?.code, result?.err).toBe(0);
    expect(modeOf(file)).toBe(0o600);
    expect(widest).toBe(0o600);
  });

  it('backup --force over a file readable by all: the copy is 0600', async () => {
    const file = path.join(dir, 'wide-copy.db');
    wideFile(file);
    const result = await admin(['backup', file, '--force']);
    expect(result.code, result.err).toBe(0);
    expect(modeOf(file)).toBe(0o600);
  });

  it('restore: the restored store is 0600, a new one or over one readable by all', async () => {
    const backup = path.join(dir, 'for-restore.db');
    expect((await admin(['backup', backup])).code).toBe(0);
    const fresh = path.join(dir, 'restored', 'vez.db');
    await restoreStore({ kind: 'sqlite', file: fresh }, [backup], () => {});
    expect(modeOf(fresh)).toBe(0o600);
    const over = path.join(dir, 'over', 'vez.db');
    fs.mkdirSync(path.dirname(over));
    fs.copyFileSync(backup, over);
    fs.chmodSync(over, 0o644);
    await restoreStore({ kind: 'sqlite', file: over }, [backup, '--force'], () => {});
    expect(modeOf(over)).toBe(0o600);
  });

  it('a new SQLite store and its WAL are 0600', async () => {
    const file = path.join(dir, 'new', 'vez.db');
    const fresh = openDb({ kind: 'sqlite', file });
    try {
      await migrateToLatest(fresh);
      expect([file, `${file}-wal`, `${file}-shm`].map(modeOf)).toEqual([0o600, 0o600, 0o600]);
    } finally {
      await fresh.close();
    }
  });

  it('person --export: 0600, also when --force replaces a file readable by all', async () => {
    const file = path.join(dir, 'pessoa.json');
    const fresh = await admin(['person', '--phone', '+5521998769001', '--export', file]);
    expect(fresh.code, fresh.err).toBe(0);
    expect(modeOf(file)).toBe(0o600);
    wideFile(file);
    const replaced = await admin(['person', '--phone', '+5521998769001', '--export', file, '--force']);
    expect(replaced.code, replaced.err).toBe(0);
    expect(modeOf(file)).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ keys: { phones: ['+5521998769001'] } });
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('.pessoa.json'))).toEqual([]);
  });
});
