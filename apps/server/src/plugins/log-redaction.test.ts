import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody, postJoin } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { stores } from '../../test/stores.js';
import { findEntryById } from '../modules/queue/index.js';

/** Decisions §3: no name, phone, email or note of a diner in the logs, whatever the path. */
describe.each(stores)('log redaction on $name', (store) => {
  const t = useTestApp(store, { LOG_LEVEL: 'trace' }, { logStream: { write: (line) => void lines.push(line) } });
  const lines: string[] = [];
  const diner = {
    name: 'Zuleica Quintanilha',
    phone: '+55 11 98765-4321',
    email: 'zuleica.q@example.com',
    note: 'Alergia a amendoim',
  };
  // Every form the phone could take in a line: as typed, E.164, bare digits.
  const secrets = ['Zuleica', 'Quintanilha', '98765-4321', '+5511987654321', '11987654321', 'zuleica.q@', 'amendoim'];
  const body = (overrides: Record<string, unknown> = {}) =>
    createBody({ customer: { name: diner.name, phone: diner.phone, email: diner.email }, note: diner.note, ...overrides });
  let entryId = '';
  let shareId = '';
  let joinProof = '';
  const passport = 'pAsSpOrT_0123456789abcdefghijkl';
  // A stream path (an unknown entry: an open stream would hold the request).
  const streamId = 'StReAm_0123456789abcde';

  beforeAll(async () => {
    const join = (payload: Record<string, unknown>) => postJoin(t, payload);
    const first = await join(body());
    expect(first.statusCode).toBe(201);
    entryId = first.json()._id;
    joinProof = first.json().joinProof;
    // A repeat join: with the first join's proof (200), and without it (409, the link re-sent).
    expect((await join(body({ joinProof: first.json().joinProof }))).statusCode).toBe(200);
    expect((await join(body())).statusCode).toBe(409);
    expect((await join(body({ partySize: 99 }))).statusCode).toBe(422);
    expect((await join(body({ customer: { name: diner.name, phone: '12', email: diner.email } }))).statusCode).toBe(422);
    const position = await t.app.inject({ method: 'GET', url: `/api/waitlists/${entryId}/position` });
    expect(position.statusCode).toBe(200);
    shareId = position.json().waitlist.shareId;
    // Every kind of URL that names an entry, a share or a login token (docs/product.md §3).
    for (const url of [
      `/waitlist/${entryId}`,
      `/waitlist/${shareId}?shared=true`,
      `/api/waitlists/${shareId}/position`,
      `/api/waitlists/${streamId}/events`,
      `/api/waitlists/${entryId}/${DEMO_BISTRO_ID}/status`,
      `/api/host/venues/${DEMO_BISTRO_ID}/entries/${entryId}/call`,
      `/remote-waitlist/${DEMO_BISTRO_ID}?lang=en&passport=${passport}`,
      `/waitlist/${entryId}?passport=short`,
    ]) {
      expect((await t.app.inject({ method: url.includes('/call') ? 'POST' : 'GET', url })).statusCode).toBeLessThan(500);
    }
    const cancel = await t.app.inject({
      method: 'PUT',
      url: `/api/waitlists/${entryId}/${DEMO_BISTRO_ID}/cancel`,
      payload: { reason: 'Customer' },
    });
    expect(cancel.statusCode).toBeLessThan(500);
    // What a module would log about an entry or a request body goes through the same redaction.
    const row = await findEntryById(t.db.kysely, entryId);
    t.app.log.info({ entry: row }, 'entry logged by a module');
    t.app.log.info({ body: body() }, 'body logged by a module');
    t.app.log.info({ request: { entry: row } }, 'nested entry');
    t.app.log.info({ body: body({ joinProof }) }, 'repeat-join body logged by a module');
    t.app.log.info({ customer: body().customer, phone: diner.phone, email: diner.email, note: diner.note, name: diner.name }, 'fields');
    // An unexpected failure in the middle of a join is reported through the log (no SENTRY_DSN).
    // The conversation's tables refer to entries: PostgreSQL drops them too (cascade).
    await sql.raw(t.db.dialect === 'postgres' ? 'drop table entries cascade' : 'drop table entries').execute(t.db.kysely);
    expect((await join(body())).statusCode).toBe(500);
  });

  it('logged every step (the capture works)', () => {
    const text = lines.join('');
    expect(text).toContain('incoming request');
    expect(text).toContain('entry logged by a module');
    expect(text).toContain('"msg":"unexpected error"');
    expect(text).toContain('[redacted]');
  });

  it('no log line holds the join proof (docs/product.md §3: it gets the entry back)', () => {
    expect(joinProof).not.toBe('');
    expect(lines.filter((line) => line.includes(joinProof))).toEqual([]);
  });

  it('no log line holds the entry id, the share id or a login token; venue ids stay', () => {
    expect(entryId).toMatch(/^[\w-]{22}$/);
    expect(shareId).toMatch(/^[\w-]{22}$/);
    for (const secret of [entryId, shareId, streamId, passport, 'passport=short']) {
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    }
    const text = lines.join('');
    expect(text).toContain(`/waitlist/:masked?shared=true`);
    expect(text).toContain(`/api/host/venues/${DEMO_BISTRO_ID}/entries/:masked/call`);
    expect(text).toContain(`/remote-waitlist/${DEMO_BISTRO_ID}?lang=en&passport=:masked`);
  });

  it.each(secrets)('no log line holds %s', (secret) => {
    const offending = lines.filter((line) => line.toLowerCase().includes(secret.toLowerCase()));
    expect(offending).toEqual([]);
  });
});
