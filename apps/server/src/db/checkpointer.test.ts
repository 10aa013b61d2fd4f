import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CheckpointResult } from './checkpointer.js';
import { migrateToLatest, openDb } from './connect.js';

// db/checkpointer.ts, docs/decisions/053-checkpoints-off-the-event-loop.md: the app's SQLite
// connection never checkpoints inside a commit; a worker thread does, and the store closes clean.

describe('SQLite checkpoints off the event loop', () => {
  it('the app connection leaves checkpoints to the worker, which copies the whole WAL; closing removes it, nothing lost', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-checkpoint-'));
    const file = path.join(dir, 'vez.db');
    const db = openDb({ kind: 'sqlite', file });
    await migrateToLatest(db);
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db.kysely);
    expect(rows[0]!.wal_autocheckpoint).toBe(0);
    expect(db.checkpointer).toBeDefined();
    // More than SQLite's own threshold (1,000 pages) written: the app's commits would have checkpointed.
    let writing = true;
    const all = new Promise<CheckpointResult>((resolve) =>
      db.checkpointer!.onCheckpoint((result) => {
        if (!writing && result.checkpointed === result.log) resolve(result);
      }),
    );
    await sql`create table filler (id integer primary key, blob text)`.execute(db.kysely);
    const blob = 'x'.repeat(3_000);
    for (let i = 0; i < 1_500; i++) await sql`insert into filler (blob) values (${blob})`.execute(db.kysely);
    writing = false;
    // The next checkpoint after the last write: every frame of the WAL copied into the database.
    const done = await all;
    expect(done.log).toBeGreaterThan(0);
    expect(done.checkpointed).toBe(done.log);
    await db.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const again = openDb({ kind: 'sqlite', file }, { checkpointsInWorker: false });
    const count = await sql<{ n: number }>`select count(*) as n from filler`.execute(again.kysely);
    expect(count.rows[0]!.n).toBe(1_500);
    await again.close();
  });

  it('a process whose last work is closing its store ends with it, exit code 0 (the admin CLI, scripts)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-checkpoint-'));
    const script = `
      const { migrateToLatest, openDb } = await import(${JSON.stringify(path.join(import.meta.dirname, 'connect.ts'))});
      const db = openDb({ kind: 'sqlite', file: ${JSON.stringify(path.join(dir, 'vez.db'))} });
      await migrateToLatest(db);
      await db.close();
      console.log('closed');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    // Node ends a process whose top-level await never settled with code 13.
    expect({ status: child.status, stdout: child.stdout.trim() }).toEqual({ status: 0, stdout: 'closed' });
  });
});
