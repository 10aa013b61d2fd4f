import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOnStore } from '../../test/harness.js';
import { stores } from '../../test/stores.js';
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
    const venue = await admin([
      'create-venue',
      '--name-pt',
      'Cantina Nova',
      '--name-en',
      'New Canteen',
      '--slug',
      'cantina-nova',
      '--max-party-size',
      '6',
    ]);
    expect(venue.code).toBe(0);
    const venueId = venue.out[0]!;
    expect(venueId).toMatch(/^[0-9a-f]{24}$/);
    const other = (await admin(['create-venue', '--name-pt', 'Outra Casa', '--slug', 'outra-casa'])).out[0]!;

    const staff = await admin(['create-staff', '--email', 'Chef@Cantina.example', '--venue', venueId], 'senha-forte-1');
    expect(staff.code).toBe(0);
    expect((await admin(['list-venues'])).out).toEqual([`${venueId}  cantina-nova  Cantina Nova`, `${other}  outra-casa  Outra Casa`]);

    const app = await appOnStore(db);
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/host/login',
        payload: { email: 'chef@cantina.example', password: 'senha-forte-1' },
      });
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
    [['create-venue', '--name-pt', 'X', '--slug', 'Not A Slug'], /slug/, ''],
    [['create-venue', '--slug', 'sem-nome'], /pt/, ''],
    [['create-staff', '--email', 'short@pw.example'], /8 characters/, '123'],
    [['create-staff', '--email', 'ghost@venue.example', '--venue', 'ffffffffffffffffffffffff'], /No venue/, '12345678'],
    [['create-staff', '--email', 'bad-venue@venue.example', '--venue', 'nope'], /VenueId/, '12345678'],
    [['add-staff-venue', '--email', 'nobody@x.example', '--venue', 'ffffffffffffffffffffffff'], /No staff account/, ''],
    [['staff:remove', 'nobody@x.example'], /No staff account/, ''],
    [['staff:logout', 'nobody@x.example'], /No staff account/, ''],
    [['staff:password', 'nobody@x.example'], /No staff account/, '12345678'],
    [['staff:remove'], /exactly one staff email/, ''],
  ])('refuses %j with a message and exit code 1', async (argv, message, password) => {
    const result = await admin(argv, password);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
  });

  it.each([
    ['create-staff', '--email', 'pw@arg.example', '--password', 'senha-na-linha'],
    ['create-staff', '--email', 'pw@arg.example', '--password=senha-na-linha'],
    ['staff:password', 'chef@cantina.example', '--password', 'senha-na-linha'],
  ])('refuses a password on the command line (%j): standard input only (docs/product.md §9)', async (...argv) => {
    const result = await admin(argv, 'senha-do-stdin');
    expect(result.code).toBe(64);
    expect(result.err).toMatch(/standard input only/);
    expect(await db.kysely.selectFrom('staff').select('id').where('email', '=', 'pw@arg.example').executeTakeFirst()).toBeUndefined();
  });

  it('ends every session of an account, changes its password, and removes it', async () => {
    const venueId = (await admin(['create-venue', '--name-pt', 'Casa Três', '--slug', 'casa-tres'])).out[0]!;
    expect((await admin(['create-staff', '--email', 'ana@tres.example', '--venue', venueId], 'senha-da-ana')).code).toBe(0);
    const app = await appOnStore(db);
    try {
      const login = async (password: string) => {
        const res = await app.inject({ method: 'POST', url: '/api/host/login', payload: { email: 'ana@tres.example', password } });
        return res.statusCode === 200 ? `vez_staff=${res.cookies[0]!.value}` : res.statusCode;
      };
      const queue = async (cookie: string | number) =>
        (await app.inject({ method: 'GET', url: `/api/host/venues/${venueId}/entries`, headers: { cookie: String(cookie) } })).statusCode;
      const [phone, laptop] = [await login('senha-da-ana'), await login('senha-da-ana')];
      expect([await queue(phone), await queue(laptop)]).toEqual([200, 200]);

      const logout = await admin(['staff:logout', 'ANA@tres.example']);
      expect(logout).toMatchObject({ code: 0, out: ['ana@tres.example: 2 session(s) ended'] });
      expect([await queue(phone), await queue(laptop)]).toEqual([401, 401]);

      const again = await login('senha-da-ana');
      expect((await admin(['staff:password', '--email', 'ana@tres.example'], 'nova-senha-da-ana')).code).toBe(0);
      expect(await queue(again)).toBe(401);
      expect(await login('senha-da-ana')).toBe(401);
      const fresh = await login('nova-senha-da-ana');
      expect(await queue(fresh)).toBe(200);

      expect((await admin(['staff:remove', 'ana@tres.example'])).code).toBe(0);
      expect(await queue(fresh)).toBe(401);
      expect(await login('nova-senha-da-ana')).toBe(401);
      const left = await db.kysely.selectFrom('staff_venues').select('staff_id').where('venue_id', '=', venueId).execute();
      expect(left).toEqual([]);
      // The email is free again.
      expect((await admin(['create-staff', '--email', 'ana@tres.example'], 'outra-senha-1')).code).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    expect((await admin(['create-staff', '--email', 'dup@x.example'], '12345678')).code).toBe(0);
    const again = await admin(['create-staff', '--email', 'DUP@x.example'], '12345678');
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
  it('reads DATABASE_URL like the server, migrates, and reads passwords from standard input only', { timeout: 90_000 }, async () => {
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

    // A new password from stdin; a password on the command line is refused before anything runs.
    expect((await cli(['staff:password', 'ze@bar.example'], 'outro-segredo\n')).stdout).toContain('password changed');
    const refused = await cli(['staff:password', 'ze@bar.example', '--password', 'na-linha-de-comando']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(refused).toMatchObject({ code: 64, stderr: expect.stringMatching(/standard input only/) });
    expect((await cli(['staff:logout', 'ze@bar.example'])).stdout).toContain('0 session(s) ended');
    expect((await cli(['staff:remove', 'ze@bar.example'])).stdout).toContain('removed');
    const gone = await cli(['staff:logout', 'ze@bar.example']).catch((e: { code: number; stderr: string }) => e);
    expect(gone).toMatchObject({ code: 1, stderr: expect.stringMatching(/No staff account/) });
  });
});
