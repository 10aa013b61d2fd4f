import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';

/**
 * docs/product.md §6: a walk-in needs a name only (one word at the door); without a phone no
 * message is queued and the party is called out by its ticket number. A diner's own join still
 * needs a full name and a phone (docs/product.md §15).
 */
describe.each(stores)('walk-ins with a name only on $name', (store) => {
  const t = useTestApp(store);
  let cookie: string;
  beforeAll(async () => {
    cookie = await t.staffCookie();
  });

  const host = (method: 'GET' | 'POST', path: string, payload?: object) =>
    t.app.inject({ method, url: `/api/host/venues/${DEMO_BISTRO_ID}${path}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const messagesOf = async (entryId: string) =>
    (await t.db.kysely.selectFrom('messages').select('id').where('entry_id', '=', entryId).execute()).length;

  it('adds a one-word walk-in without a phone, with its ticket number, and queues no message, even when called', async () => {
    const before = (await host('GET', '/entries')).json().entries.length;
    const res = await host('POST', '/entries', { customer: { name: 'Joana' }, partySize: 3 });
    expect(res.statusCode).toBe(201);
    const { entry } = res.json();
    expect(entry).toMatchObject({
      name: 'Joana',
      phone: null,
      partySize: 3,
      originLabel: 'Host',
      customerTab: expect.stringMatching(/^\d+$/),
    });
    const queue = (await host('GET', '/entries')).json().entries as { _id: string; customerTab: string }[];
    expect(queue).toHaveLength(before + 1);
    expect(queue.find((e) => e._id === entry._id)?.customerTab).toBe(entry.customerTab);
    const called = await host('POST', `/entries/${entry._id}/call`);
    expect(called.statusCode).toBe(200);
    expect(called.json().entry.status).toBe('called');
    expect(await messagesOf(entry._id)).toBe(0);
  });

  it('takes an empty phone as none, and two phoneless parties are two entries with their own tickets', async () => {
    const first = await host('POST', '/entries', { customer: { name: 'Ana', phone: '' }, partySize: 2 });
    const second = await host('POST', '/entries', { customer: { name: 'Ana', phone: '  ' }, partySize: 2 });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(first.json().entry._id).not.toBe(second.json().entry._id);
    expect(Number(second.json().entry.customerTab)).toBe(Number(first.json().entry.customerTab) + 1);
  });

  it('still sends the join message to a walk-in that gives a phone', async () => {
    const res = await host('POST', '/entries', { customer: { name: 'Caio', phone: nextPhone() }, partySize: 2 });
    expect(res.statusCode).toBe(201);
    expect(await messagesOf(res.json().entry._id)).toBeGreaterThan(0);
  });

  it.each([
    [{ customer: { name: '' }, partySize: 2 }, 'customer.name'],
    [{ customer: { name: '123' }, partySize: 2 }, 'customer.name'],
    [{ customer: { name: 'Joana', phone: '12' }, partySize: 2 }, 'customer.phone'],
    [{ customer: { phone: nextPhone() }, partySize: 2 }, 'customer.name'],
  ])('refuses %j with 422 at its field', async (payload, field) => {
    const res = await host('POST', '/entries', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field });
  });

  it("keeps the diner's own join strict: a full name and a phone", async () => {
    const join = (customer: object) => postJoin(t, { customer });
    const oneWord = await join({ name: 'Joana', phone: nextPhone() });
    expect(oneWord.statusCode).toBe(422);
    expect(oneWord.json()).toMatchObject({ field: 'customer.name' });
    const noPhone = await join({ name: 'Joana Prado', phone: '' });
    expect(noPhone.statusCode).toBe(422);
    expect(noPhone.json()).toMatchObject({ field: 'customer.phone' });
  });
});
