import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Db, migrateToLatest, openDb } from '../src/db/connect.js';

/** The PostgreSQL server the store suites use, when one is configured (CI sets DATABASE_URL). */
export const postgresUrl = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined;

if (!postgresUrl) {
  process.stderr.write(
    '\n[store suites] PostgreSQL NOT RUN: DATABASE_URL is not a postgres:// URL. ' +
      'Set DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run them.\n',
  );
}

export interface TestStore {
  name: 'sqlite' | 'postgres';
  /** A fresh, migrated, empty store; its own SQLite file or its own PostgreSQL schema. */
  open(): Promise<Db & { location: TestLocation }>;
}

export type TestLocation = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };

export const sqliteStore: TestStore = {
  name: 'sqlite',
  async open() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-test-'));
    const file = path.join(dir, 'vez.db');
    const db = openDb({ kind: 'sqlite', file });
    await migrateToLatest(db);
    return { ...db, location: { kind: 'sqlite', file } };
  },
};

export const postgresStore: TestStore = {
  name: 'postgres',
  async open() {
    if (!postgresUrl) throw new Error('PostgreSQL is not configured');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
    const db = openDb({ kind: 'postgres', url: postgresUrl }, { schema, poolSize: 20 });
    await migrateToLatest(db);
    const close = async () => {
      await db.close();
      await dropPostgresSchema(schema);
    };
    return { ...db, close, location: { kind: 'postgres', url: postgresUrl, schema } };
  },
};

/** Drops a test's own PostgreSQL schema and everything in it (a suite's instances have stopped). */
export async function dropPostgresSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}

/** Every store the contract suite loops over: SQLite always, PostgreSQL when configured. */
export const stores: TestStore[] = postgresUrl ? [sqliteStore, postgresStore] : [sqliteStore];
