import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, postJoin } from '../../test/fixtures.js';
import { type TestApp, useTestApp } from '../../test/harness.js';
import { signUp, signUpByEmail } from '../../test/identity.js';
import { type TestLocation, sqliteStore, stores } from '../../test/stores.js';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import { type AdminIo, runAdmin } from './admin-commands.js';

// A person's rights (docs/product.md §9, docs/decisions/024-backups-and-personal-data.md).

const PHONE = '+5521998761001';
const TYPED_PHONE = '(21) 99876-1001';
const EMAIL = 'Pessoa.Um@Example.com';
const OTHER_PHONE = '+5521998761002';
const CONTACT_ONLY_PHONE = '+5521998761003';

/** Columns a message's delivery moves by itself (the worker sends in the background), and times of reads. */
const MOVING = new Set(['status', 'attempts', 'next_attempt_at', 'provider', 'provider_id', 'error', 'sent_at', 'body', 'safe_body']);
const MOVING_ENTRY = new Set(['last_message_status']);

type Snapshot = Record<string, Map<string, string>>;

/** Every row of every table, keyed by its whole content but the columns that move by themselves. */
async function snapshot(t: TestApp): Promise<Snapshot> {
  const tables: (keyof Database)[] = [
    'venues',
    'entries',
    'entry_messages',
    'push_subscriptions',
    'messages',
    'product_users',
    'user_sessions',
    'one_time_codes',
    'passports',
    'user_events',
    'sms_opt_outs',
    'staff',
    'staff_venues',
    'staff_sessions',
  ];
  const result: Snapshot = {};
  for (const table of tables) {
    const rows = (await t.db.kysely.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    const skip = table === 'messages' ? MOVING : table === 'entries' ? MOVING_ENTRY : new Set<string>();
    result[table] = new Map(
      rows.map((row) => {
        const kept = Object.fromEntries(Object.entries(row).filter(([k]) => !skip.has(k)));
        const key = String(row.id ?? row.token_hash ?? row.phone ?? `${String(row.staff_id)}/${String(row.venue_id)}`);
        return [key, JSON.stringify(kept)];
      }),
    );
  }
  return result;
}

/** The rows whose content changed or that disappeared between two snapshots, per table. */
function changedRows(before: Snapshot, after: Snapshot): Record<string, string[]> {
  const changed: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(before)) {
    const keys = [...rows].filter(([key, value]) => after[table]?.get(key) !== value).map(([key]) => key);
    if (keys.length) changed[table] = keys.sort();
  }
  return changed;
}

describe.each(stores)('admin person on $name', (store) => {
  const t = useTestApp(store);
  const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-person-'));
  afterAll(async () => {
    fs.rmSync(exportDir, { recursive: true, force: true });
  });

  const admin = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: AdminIo = { db: t.db, out: (l) => out.push(l), err: (l) => err.push(l), prompt: async () => '', now: () => t.clock.now };
    const code = await runAdmin(argv, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  const join = async (venueId: string, phone: string, customer: Record<string, unknown> = {}, body: Record<string, unknown> = {}) => {
    const res = await postJoin(
      t,
      { customer: { name: 'Pessoa Um', phone, email: '', ...customer }, note: 'cadeira alta', ...body },
      { venueId },
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  const leave = async (id: string, venueId: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/waitlists/${id}/${venueId}/cancel`,
      payload: { logs: { customer: id, actionType: 'Remove' }, customer: id, cancelReason: 'Customer' },
    });
    expect(res.statusCode).toBe(200);
  };
  const pushSubscription = (entryId: string) =>
    t.db.kysely
      .insertInto('push_subscriptions')
      .values({
        id: `ps-${entryId}`,
        entry_id: entryId,
        endpoint: `https://push.example/${entryId}`,
        p256dh: 'k',
        auth: 'a',
        created_at: t.clock.now,
      })
      .execute();
  const threadMessage = (entryId: string, venueId: string, text: string) =>
    t.db.kysely
      .insertInto('entry_messages')
      .values({
        id: `em-${entryId}`,
        entry_id: entryId,
        venue_id: venueId,
        direction: 'in',
        text,
        status: 'received',
        message_id: null,
        created_at: t.clock.now,
      })
      .execute();

  let ids: { bistro: string; club: string; other: string };

  it('finds a person by phone, however typed: entries at two venues, messages, account, codes, push, opt-out', async () => {
    // The person: an account verified by phone, entries at two venues (one with their email), a
    // thread message, a push subscription, a STOP. Another person at the same venue, alike.
    await signUp(t, PHONE);
    ids = {
      bistro: await join(DEMO_BISTRO_ID, PHONE, { email: EMAIL }),
      club: await join(DEMO_CLUB_ID, TYPED_PHONE, { email: 'clube.pessoa@example.com' }, { note: 'Localização: Varanda' }),
      other: await join(DEMO_BISTRO_ID, OTHER_PHONE),
    };
    await signUp(t, OTHER_PHONE);
    for (const id of [ids.bistro, ids.other]) {
      await pushSubscription(id);
      await threadMessage(id, DEMO_BISTRO_ID, 'chego em 5 minutos');
    }
    const user = await t.db.kysely.selectFrom('product_users').select('id').where('phone', '=', PHONE).executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('user_events')
      .values({
        id: 'ev-1',
        user_id: user.id,
        venue_id: DEMO_BISTRO_ID,
        event_type: 'join',
        event_body: '{"name":"Pessoa Um"}',
        waitlist_id: ids.bistro,
        created_at: t.clock.now,
      })
      .execute();
    await t.db.kysely.insertInto('sms_opt_outs').values({ phone: PHONE, created_at: t.clock.now }).execute();
    await t.app.notifier.drain();

    const found = await admin(['person', '--phone', TYPED_PHONE]);
    expect(found.code).toBe(0);
    expect(found.out).toMatch(/entries\s+2/);
    expect(found.out).toMatch(/entry_messages\s+1/);
    expect(found.out).toMatch(/push_subscriptions\s+1/);
    expect(found.out).toMatch(/product_users\s+1/);
    expect(found.out).toMatch(/user_sessions\s+1/);
    expect(found.out).toMatch(/user_events\s+1/);
    expect(found.out).toMatch(/one_time_codes\s+1/);
    expect(found.out).toMatch(/sms_opt_outs\s+1/);
    expect(found.out).toMatch(/messages\s+[3-9]/); // the code and the two join links at least
    expect(found.out).toContain('entries at 2 venue(s); 2 open');
    // The terminal shows counts, not the data: no name, no whole phone, no email.
    expect(found.out).not.toMatch(/Pessoa|998761001|example\.com/i);
  });

  it('by email, whatever its case: the entry that gave it, and the account only through its verified phone', async () => {
    const found = await admin(['person', '--email', 'pessoa.um@example.com']);
    expect(found.code).toBe(0);
    expect(found.out).toMatch(/entries\s+1/);
    expect(found.out).not.toMatch(/product_users\s/);
  });

  it('refuses to erase while an entry is open, and changes nothing', async () => {
    const before = await snapshot(t);
    const refused = await admin(['person', '--phone', PHONE, '--erase']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/still open.*nothing was erased/);
    expect(changedRows(before, await snapshot(t))).toEqual({});
  });

  it('exports everything as JSON, refusing to overwrite a file unless --force', async () => {
    await leave(ids.bistro, DEMO_BISTRO_ID);
    await leave(ids.club, DEMO_CLUB_ID);
    await t.app.notifier.drain();
    const file = path.join(exportDir, 'pessoa.json');
    fs.writeFileSync(file, 'old');
    const refused = await admin(['person', '--phone', PHONE, '--export', file]);
    expect(refused).toMatchObject({ code: 1, err: expect.stringMatching(/already exists.*--force/) });
    expect(fs.readFileSync(file, 'utf8')).toBe('old');

    const exported = await admin(['person', '--phone', PHONE, '--export', file, '--force']);
    expect(exported.code).toBe(0);
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(data.keys).toEqual({ phones: [PHONE], emails: [] });
    expect(data.entries.map((e: { id: string }) => e.id).sort()).toEqual([ids.bistro, ids.club].sort());
    expect(data.entries.find((e: { id: string }) => e.id === ids.bistro)).toMatchObject({
      name: 'Pessoa Um',
      phone: PHONE,
      email: EMAIL,
      note: 'cadeira alta',
      venue_id: DEMO_BISTRO_ID,
      status: 'cancelled',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(data.entryMessages).toEqual([expect.objectContaining({ entry_id: ids.bistro, text: 'chego em 5 minutos' })]);
    expect(data.pushSubscriptions).toEqual([
      expect.objectContaining({ entry_id: ids.bistro, endpoint: `https://push.example/${ids.bistro}` }),
    ]);
    expect(data.accounts).toEqual([expect.objectContaining({ phone: PHONE, first_name: 'Ana' })]);
    expect(data.userEvents).toEqual([expect.objectContaining({ event_body: { name: 'Pessoa Um' } })]);
    expect(data.oneTimeCodes).toEqual([expect.objectContaining({ channel: 'sms', target: PHONE })]);
    expect(data.smsOptOuts).toEqual([expect.objectContaining({ phone: PHONE })]);
    expect(data.messages.length).toBeGreaterThanOrEqual(3);
    for (const message of data.messages) expect([PHONE, EMAIL.toLowerCase(), ids.bistro, ids.club]).toContain(message.recipient);
    // No hash of a code, token or password leaves the store; and nothing of the other person.
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toMatch(/code_hash|token_hash|password_hash|scrypt/);
    expect(text).not.toContain(OTHER_PHONE);
    expect(text).not.toContain(ids.other);
  });

  it('erases it all in one go, leaves the other person untouched, keeps the STOP; a second run finds nothing', async () => {
    const before = await snapshot(t);
    const erased = await admin(['person', '--phone', PHONE, '--erase']);
    expect(erased.code).toBe(0);
    expect(erased.out).toMatch(/Erased: .*entries 2.*product_users 1/);
    expect(erased.out).toMatch(/Kept: 1 SMS opt-out/);

    // What changed is the person's rows only.
    const changed = changedRows(before, await snapshot(t));
    const user = JSON.parse([...before.product_users!.values()].find((row) => row.includes(PHONE))!) as { id: string };
    expect(Object.keys(changed).sort()).toEqual(
      [
        'entries',
        'entry_messages',
        'messages',
        'one_time_codes',
        'passports',
        'product_users',
        'push_subscriptions',
        'user_events',
        'user_sessions',
      ]
        .filter((table) => changed[table])
        .sort(),
    );
    expect(changed.entries).toEqual([ids.bistro, ids.club].sort());
    expect(changed.entry_messages).toEqual([`em-${ids.bistro}`]);
    expect(changed.push_subscriptions).toEqual([`ps-${ids.bistro}`]);
    expect(changed.product_users).toEqual([user.id]);
    expect(changed.user_events).toEqual(['ev-1']);
    expect(changed.sms_opt_outs).toBeUndefined();
    const exported = JSON.parse(fs.readFileSync(path.join(exportDir, 'pessoa.json'), 'utf8')) as { messages: { id: string }[] };
    expect(changed.messages).toEqual(exported.messages.map((m) => m.id).sort());

    // Entries keep their anonymous counts and times, as retention leaves them.
    const rows = await t.db.kysely.selectFrom('entries').selectAll().where('id', 'in', [ids.bistro, ids.club]).execute();
    for (const row of rows) {
      expect(row).toMatchObject({
        name: null,
        phone: null,
        email: null,
        note: null,
        status: 'cancelled',
        party_size: 2,
        erased_at: t.clock.now,
      });
      expect(row.ended_at).toEqual(expect.any(Number));
    }
    const other = await t.db.kysely.selectFrom('entries').selectAll().where('id', '=', ids.other).executeTakeFirstOrThrow();
    expect(other).toMatchObject({ name: 'Pessoa Um', phone: OTHER_PHONE });
    // The erased party's page still answers, without a name.
    const page = await t.app.inject({ method: 'GET', url: `/api/waitlists/${ids.bistro}/position` });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Pessoa');

    const again = await admin(['person', '--phone', PHONE]);
    expect(again.out.split('\n').slice(1)).toEqual([`  ${'sms_opt_outs'.padEnd(30)} 1`]);
    const byEmail = await admin(['person', '--email', EMAIL]);
    expect(byEmail.out).toMatch(/nothing/);
  });

  it('an unverified phone on someone else account: only that contact is the person’s, shown and erased', async () => {
    await signUpByEmail(t, 'outra.pessoa@example.com', CONTACT_ONLY_PHONE);
    const file = path.join(exportDir, 'contact.json');
    const found = await admin(['person', '--phone', CONTACT_ONLY_PHONE, '--export', file]);
    expect(found.out).toMatch(/product_users \(contact only\)\s+1/);
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(data.accounts).toEqual([]);
    expect(data.contactsOnOtherAccounts).toEqual([{ accountId: expect.any(String), phone: CONTACT_ONLY_PHONE }]);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('outra.pessoa');

    expect((await admin(['person', '--phone', CONTACT_ONLY_PHONE, '--erase'])).code).toBe(0);
    const account = await t.db.kysely
      .selectFrom('product_users')
      .selectAll()
      .where('email', '=', 'outra.pessoa@example.com')
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({ phone: null, first_name: 'Ana' });
    expect(account.email_verified_at).not.toBeNull();
  });

  it('a staff account with the email is found and removed with its sessions and venues', async () => {
    const io: AdminIo = { db: t.db, out: () => {}, err: () => {}, prompt: async () => 'senha-da-equipe' };
    expect(await runAdmin(['create-staff', '--email', 'Equipe@Example.com', '--venue', DEMO_BISTRO_ID], io)).toBe(0);
    const found = await admin(['person', '--email', 'equipe@example.COM']);
    expect(found.out).toMatch(/staff\s+1/);
    const erased = await admin(['person', '--email', 'equipe@example.com', '--erase']);
    expect(erased.out).toMatch(/Erased: staff 1/);
    // The demo bistro keeps its own owner, so no warning about it.
    expect(erased.out).not.toMatch(/has no owner now/);
    // The club's only owner: erased as staff:remove would, and the venue named.
    const owner = await admin(['person', '--email', 'host@clube.example', '--erase']);
    expect(owner.out).toContain(`Venue ${DEMO_CLUB_ID} has no owner now`);
    expect(await t.db.kysely.selectFrom('staff').select('id').where('email', '=', 'equipe@example.com').execute()).toEqual([]);
  });

  it('backup copies the SQLite store; on PostgreSQL backup and restore refuse, naming pg_dump and pg_restore', async () => {
    const location = (t.db as TestApp['db'] & { location: TestLocation }).location;
    const database: Config['database'] =
      location.kind === 'sqlite' ? { kind: 'sqlite', file: location.file } : { kind: 'postgres', url: location.url };
    const run = async (argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdmin(argv, { db: t.db, database, out: (l) => out.push(l), err: (l) => err.push(l), prompt: async () => '' });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const file = path.join(exportDir, 'copy.db');
    if (location.kind === 'postgres') {
      for (const command of ['backup', 'restore']) {
        const refused = await run([command, file]);
        expect(refused.code).toBe(1);
        expect(refused.err).toMatch(/pg_dump -Fc.*pg_restore.*docs\/decisions\/024/);
      }
      expect(fs.existsSync(file)).toBe(false);
    } else {
      const copied = await run(['backup', file]);
      expect(copied.code).toBe(0);
      expect(copied.out).toMatch(/entries at 2 venues.*integrity check ok/);
    }
    expect((await run(['backup'])).err).toMatch(/Name exactly one file/);
  });

  it.each([
    [['person'], /--phone <phone> or --email <email>/],
    [['person', '--phone', '12'], /not a valid phone/],
    [['person', '--email', 'not-an-email'], /not an email/],
    [['person', '--phone', PHONE, '--export', '/no/such/dir/x.json'], /does not exist/],
    [['person', '--phone', PHONE, '--frobnicate'], /Unknown option/],
  ])('refuses %j with a message and exit code 1', async (argv, message) => {
    const result = await admin(argv);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
  });
});

describe('where a person’s data lives', () => {
  it('every column holding a phone or an email is one the person command reads (modules/privacy)', async () => {
    const db = await sqliteStore.open();
    try {
      const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db.kysely);
      const columns: string[] = [];
      for (const { name } of tables) {
        const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db.kysely);
        columns.push(
          ...rows.filter((c) => /phone|email|recipient|target/i.test(c.name) && !c.name.endsWith('_at')).map((c) => `${name}.${c.name}`),
        );
      }
      // A new one: teach modules/privacy/personal-data.repository.ts to find and erase it (docs/decisions/024).
      expect(columns.sort()).toEqual(
        [
          'entries.email',
          'entries.phone',
          'messages.recipient',
          'one_time_codes.target',
          'product_users.email',
          'product_users.phone',
          'sms_opt_outs.phone',
          'staff.email',
          'staff_invites.email',
        ].sort(),
      );
    } finally {
      await db.close();
    }
  });
});
