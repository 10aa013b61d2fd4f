import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stores } from '../../test/stores.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import { type AdminIo, runAdmin } from './admin-commands.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');

describe.each(stores)('admin commands on $name', (store) => {
  let db: Db;
  beforeAll(async () => {
    db = await store.open();
  });
  afterAll(async () => db.close());

  const admin = async (argv: string[], password = '') => {
    const out: string[] = [];
    const err: string[] = [];
    const io: AdminIo = { db, out: (l) => out.push(l), err: (l) => err.push(l), prompt: async () => password };
    const code = await runAdmin(argv, io);
    return { code, out, err: err.join('\n') };
  };

  it('creates venues and staff who can then log in to run exactly those venues', async () => {
    const venue = await admin(['create-venue', '--name-pt', 'Cantina Nova', '--name-en', 'New Canteen', '--slug', 'cantina-nova', '--max-party-size', '6']);
    expect(venue.code).toBe(0);
    const venueId = venue.out[0]!;
    expect(venueId).toMatch(/^[0-9a-f]{24}$/);
    const other = (await admin(['create-venue', '--name-pt', 'Outra Casa', '--slug', 'outra-casa'])).out[0]!;

    const staff = await admin(['create-staff', '--email', 'Chef@Cantina.example', '--venue', venueId], 'senha-forte-1');
    expect(staff.code).toBe(0);
    expect((await admin(['list-venues'])).out).toEqual([`${venueId}  cantina-nova  Cantina Nova`, `${other}  outra-casa  Outra Casa`]);

    const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), db });
    try {
      const login = await app.inject({ method: 'POST', url: '/api/host/login', payload: { email: 'chef@cantina.example', password: 'senha-forte-1' } });
      expect(login.statusCode).toBe(200);
      expect(login.json().venues.map((v: { _id: string }) => v._id)).toEqual([venueId]);
      const cookie = `vez_staff=${login.cookies[0]!.value}`;
      expect((await app.inject({ method: 'GET', url: `/api/host/venues/${other}/entries`, headers: { cookie } })).statusCode).toBe(403);
      expect((await admin(['add-staff-venue', '--email', 'chef@cantina.example', '--venue', other])).code).toBe(0);
      expect((await app.inject({ method: 'GET', url: `/api/host/venues/${other}/entries`, headers: { cookie } })).statusCode).toBe(200);
      const venueRead = await app.inject({ method: 'GET', url: `/api/venues/${venueId}` });
      expect(venueRead.json()).toMatchObject({ slug: 'cantina-nova', name: { pt: 'Cantina Nova', en: 'New Canteen' } });
    } finally {
      await app.close();
    }
  });

  it.each([
    [['create-venue', '--name-pt', 'X', '--slug', 'Not A Slug'], /slug/],
    [['create-venue', '--slug', 'sem-nome'], /pt/],
    [['create-staff', '--email', 'short@pw.example', '--password', '123'], /8 characters/],
    [['create-staff', '--email', 'ghost@venue.example', '--password', '12345678', '--venue', 'ffffffffffffffffffffffff'], /No venue/],
    [['create-staff', '--email', 'bad-venue@venue.example', '--password', '12345678', '--venue', 'nope'], /VenueId/],
    [['add-staff-venue', '--email', 'nobody@x.example', '--venue', 'ffffffffffffffffffffffff'], /No staff account/],
  ])('refuses %j with a message and exit code 1', async (argv, message) => {
    const result = await admin(argv);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    expect((await admin(['create-staff', '--email', 'dup@x.example', '--password', '12345678'])).code).toBe(0);
    const again = await admin(['create-staff', '--email', 'DUP@x.example', '--password', '12345678']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already has an account/);
  });

  it('prints the usage for an unknown command (exit 64)', async () => {
    const result = await admin(['frobnicate']);
    expect(result.code).toBe(64);
    expect(result.err).toContain('create-venue');
  });
});

describe('npm run admin (the entry point)', () => {
  it('reads DATABASE_URL like the server, migrates, and reads the password from stdin when not given', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-admin-'));
    const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, 'admin.db')}` };
    const entry = path.join(repoRoot, 'apps/server/src/cli/admin.ts');
    const cli = (args: string[], input?: string) =>
      new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        const child = execFile(process.execPath, ['--import', 'tsx', entry, ...args], { cwd: repoRoot, env }, (error, stdout, stderr) =>
          error ? reject(Object.assign(error, { stderr })) : resolve({ stdout, stderr }),
        );
        child.stdin?.end(input ?? '');
      });
    const venueId = (await cli(['create-venue', '--name-pt', 'Bar do Zé', '--slug', 'bar-do-ze'])).stdout.trim();
    expect(venueId).toMatch(/^[0-9a-f]{24}$/);
    const staff = await cli(['create-staff', '--email', 'ze@bar.example', '--venue', venueId], 'segredo-do-ze\n');
    expect(staff.stdout.trim()).toMatch(/^[0-9a-f]{24}$/);
    expect(staff.stderr).toContain('Password for ze@bar.example');
    expect((await cli(['list-venues'])).stdout).toContain(`${venueId}  bar-do-ze  Bar do Zé`);
  });
});
