import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { signUp } from '../../../test/identity.js';
import { stores } from '../../../test/stores.js';
import { type AdminIo, runAdmin } from '../../cli/admin-commands.js';
import type { Database } from '../../db/types.js';

/**
 * Every table of the store, and the columns in it that hold a person's data (docs/decisions/024,
 * docs/security.md). A new table must be added here: the type refuses a missing one, and the test
 * below refuses a table in the store that is not listed.
 */
const PERSONAL_COLUMNS = {
  venues: [],
  venue_waiting: [],
  venue_open_counts: [],
  entries: ['name', 'phone', 'email', 'note', 'section', 'venue_messages', 'client_key'],
  venue_pace: [],
  venue_floor: [],
  venue_pace_slots: [],
  product_users: ['first_name', 'last_name', 'phone', 'email', 'birthday', 'gender'],
  user_sessions: ['user_id'],
  one_time_codes: ['target', 'client_key'],
  passports: ['user_id', 'entry_id'],
  user_events: ['event_body', 'user_id', 'waitlist_id'],
  messages: ['recipient', 'body', 'safe_body'],
  staff: ['email'],
  staff_venues: ['staff_id'],
  staff_sessions: ['staff_id'],
  staff_invites: ['email'],
  images: [],
  entry_messages: ['text'],
  sms_opt_outs: ['phone'],
  push_subscriptions: ['endpoint', 'p256dh', 'auth'],
  app_keys: [],
  // Ids and times only: counts of staff sends and the provider's message sids (docs/security.md).
  staff_sends: [],
  webhook_sids: [],
  // A hash of the join's body, phone and name in it (pseudonymous); deleted after a day (docs/product.md §3.9).
  idempotency_keys: ['body_hash'],
} as const satisfies Record<keyof Database, readonly string[]>;

const TABLES = Object.keys(PERSONAL_COLUMNS) as (keyof Database)[];

const PHONE = '+5521998762001';
const EMAIL = 'pessoa.dois@example.com';
const OTHER_PHONE = '+5521998762002';
const NAME = 'Pessoa Dois';
const NOTE = 'mesa perto da janela azul';
const THREAD = 'chego em cinco minutos, Pessoa Dois';
const ENDPOINT = 'https://push.example/pessoa-dois';

/**
 * The person command (`npm run admin -- person`) reads and erases everything held about a person,
 * table by table: after `--erase` no table holds their phone, email, name, note, thread text, push
 * endpoint or address key, but the STOP it keeps on purpose (docs/decisions/024).
 */
describe.each(stores)('a person’s data in every table on $name', (store) => {
  const t = useTestApp(store);

  const admin = async (argv: string[]) => {
    const out: string[] = [];
    const io: AdminIo = { db: t.db, out: (l) => out.push(l), err: (l) => out.push(l), prompt: async () => '', now: () => t.clock.now };
    const code = await runAdmin(argv, io);
    return { code, out: out.join('\n') };
  };
  const event = (cookie: string, waitlistId: string, data: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/product-user/event',
      headers: { cookie },
      payload: { venueId: DEMO_BISTRO_ID, eventType: 'waitlist-enter', eventBody: { data, waitlistId } },
    });

  /** Every row of every table that still holds one of the person's traces, as `table.column`. */
  async function traces(needles: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const table of TABLES) {
      const rows = (await t.db.kysely.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          const text = (Buffer.isBuffer(value) ? '' : String(value)).toLowerCase();
          if (needles.some((n) => text.includes(n.toLowerCase()))) found.push(`${table}.${column}`);
        }
      }
    }
    return [...new Set(found)].sort();
  }

  it('lists every table of the store here, with its personal columns', async () => {
    const names =
      store.name === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(t.db.kysely)).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(t.db.kysely)
          ).rows.map((r) => r.name);
    const ours = names.filter((n) => !n.startsWith('kysely_') && !n.startsWith('sqlite_'));
    expect(ours.sort()).toEqual([...TABLES].sort());
    for (const table of TABLES) {
      const columns = Object.keys((await t.db.kysely.selectFrom(table).selectAll().limit(1).execute())[0] ?? {});
      for (const column of PERSONAL_COLUMNS[table]) if (columns.length) expect(columns, table).toContain(column);
    }
  });

  it('finds the person in every table that holds them, and erases every trace but the STOP', async () => {
    // The person: an account verified by phone, a join from it (its SMS carries a login link), the
    // join's event, a thread message, a push subscription, a STOP, a staff account and an invitation
    // with their email. Someone else's account recorded the join too, with the person's phone in it.
    const cookie = await signUp(t, PHONE, { firstName: 'Pessoa', lastName: 'Dois' });
    const body = createBody({ customer: { name: NAME, phone: PHONE, email: EMAIL }, note: NOTE }, DEMO_BISTRO_ID);
    // The body as it stands: createBody of a whole body is that body.
    const joined = await postJoin(t, body, { headers: { cookie } });
    expect(joined.statusCode, joined.body).toBe(201);
    const entryId = joined.json()._id as string;
    expect((await event(cookie, entryId, body)).statusCode).toBe(201);
    const otherCookie = await signUp(t, OTHER_PHONE, { firstName: 'Outra', lastName: 'Conta' });
    expect((await event(otherCookie, entryId, { customer: { phone: PHONE } })).statusCode).toBe(201);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/product-user/event',
      headers: { cookie: otherCookie },
      payload: { venueId: DEMO_BISTRO_ID, eventType: 'waitlist-login', eventBody: { data: { typed: EMAIL.toUpperCase() } } },
    });
    expect(login.statusCode).toBe(201);
    const now = t.clock.now;
    await t.db.kysely
      .insertInto('entry_messages')
      .values({
        id: 'em-pessoa-dois',
        entry_id: entryId,
        venue_id: DEMO_BISTRO_ID,
        direction: 'in',
        text: THREAD,
        status: 'received',
        message_id: null,
        created_at: now,
      })
      .execute();
    await t.db.kysely
      .insertInto('push_subscriptions')
      .values({
        id: 'ps-pessoa-dois',
        entry_id: entryId,
        endpoint: ENDPOINT,
        p256dh: 'p256dh-pessoa-dois',
        auth: 'auth-pessoa-dois',
        created_at: now,
      })
      .execute();
    await t.db.kysely.insertInto('sms_opt_outs').values({ phone: PHONE, created_at: now }).execute();
    await t.db.kysely
      .insertInto('staff')
      .values({ id: 'staff-pessoa-dois', email: EMAIL, password_hash: 'scrypt$x', created_at: now })
      .execute();
    await t.db.kysely
      .insertInto('staff_venues')
      .values({ staff_id: 'staff-pessoa-dois', venue_id: DEMO_BISTRO_ID, role: 'host' })
      .execute();
    await t.db.kysely
      .insertInto('staff_sessions')
      .values({ token_hash: 'session-pessoa-dois', staff_id: 'staff-pessoa-dois', created_at: now, expires_at: now + 3_600_000 })
      .execute();
    await t.db.kysely
      .insertInto('staff_invites')
      .values({
        id: 'invite-pessoa-dois',
        token_hash: 'invite-hash-pessoa-dois',
        venue_id: DEMO_BISTRO_ID,
        email: EMAIL,
        role: 'host',
        created_by: null,
        created_at: now,
        expires_at: now + 3_600_000,
        used_at: null,
      })
      .execute();
    await t.app.notifier.drain();
    const cancelled = await t.app.inject({
      method: 'PUT',
      url: `/api/waitlists/${entryId}/${DEMO_BISTRO_ID}/cancel`,
      payload: { logs: { customer: entryId, actionType: 'Remove' }, customer: entryId, cancelReason: 'Customer' },
    });
    expect(cancelled.statusCode).toBe(200);
    const { client_key: addressKey } = await t.db.kysely
      .selectFrom('entries')
      .select('client_key')
      .where('id', '=', entryId)
      .executeTakeFirstOrThrow();
    expect(addressKey).toMatch(/^[0-9a-f]{64}$/);

    const needles = [PHONE, PHONE.slice(3), EMAIL, NAME, NOTE, THREAD, ENDPOINT, 'p256dh-pessoa-dois', addressKey as string];
    const held = await traces(needles);
    for (const table of [
      'entries',
      'entry_messages',
      'push_subscriptions',
      'messages',
      'product_users',
      'user_events',
      'one_time_codes',
      'staff',
      'staff_invites',
      'sms_opt_outs',
    ]) {
      expect(
        held.some((c) => c.startsWith(`${table}.`)),
        `${table} holds the person before the erasure`,
      ).toBe(true);
    }

    const found = await admin(['person', '--phone', PHONE, '--email', EMAIL]);
    expect(found.code).toBe(0);
    for (const [table, n] of Object.entries({
      entries: 1,
      entry_messages: 1,
      push_subscriptions: 1,
      product_users: 1,
      user_sessions: 1,
      passports: 1,
      user_events: 3,
      one_time_codes: 1,
      staff: 1,
      staff_invites: 1,
      sms_opt_outs: 1,
    })) {
      expect(found.out, table).toMatch(new RegExp(`^  ${table} +${n}$`, 'm'));
    }

    const erased = await admin(['person', '--phone', PHONE, '--email', EMAIL, '--erase']);
    expect(erased.code, erased.out).toBe(0);
    expect(await traces(needles)).toEqual(['sms_opt_outs.phone']);
    // The account's sessions, login links and events went with it; the other account keeps only its own.
    const left = await t.db.kysely.selectFrom('user_events').select(['event_body', 'waitlist_id']).execute();
    expect(left.filter((e) => e.waitlist_id === entryId)).toEqual([]);
    expect(await t.db.kysely.selectFrom('passports').selectAll().where('entry_id', '=', entryId).execute()).toEqual([]);
    expect(await t.db.kysely.selectFrom('staff_sessions').selectAll().where('staff_id', '=', 'staff-pessoa-dois').execute()).toEqual([]);
    expect(await t.db.kysely.selectFrom('staff_venues').selectAll().where('staff_id', '=', 'staff-pessoa-dois').execute()).toEqual([]);
  });
});
