import type { VenueChannelEvent } from '@vez/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody, nextPhone, joinParty, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';

/**
 * Every change to a venue's queue publishes exactly ONE event on the venue channel:
 * diner join, host add → add; edit → update; call → call; seat → seat; cancel by the diner or by
 * staff (Host, NoShow) → cancel; staff remove (reason Removed) → remove; open, lock, close and
 * settings → update without an entry id. Events carry no personal data. What the party does itself
 * is marked `byParty` (docs/product.md §7). A message's delivery is a change of its own, later and
 * for staff only (`staffOnly`): it is left out of the counts here.
 */
describe.each(stores)('venue channel events on $name', (store) => {
  const t = useTestApp(store);
  const events: VenueChannelEvent[] = [];
  beforeAll(() => {
    t.app.bus.subscribe(DEMO_BISTRO_ID, (e) => events.push(e));
  });

  const host = hostApi(t);
  const walkIn = async () =>
    (await host.post('/entries', { customer: { name: 'Rui Costa', phone: nextPhone() }, partySize: 2 })).json().entry._id as string;

  /** Runs a change and returns the events it published. */
  const during = async (change: () => Promise<unknown>) => {
    events.length = 0;
    await change();
    return events.filter((e) => !e.staffOnly);
  };

  it('diner join → one add with the entry id', async () => {
    let id = '';
    const got = await during(async () => {
      id = (await joinParty(t)).id;
    });
    expect(got).toEqual([{ type: 'add', venueId: DEMO_BISTRO_ID, entryId: id, at: expect.any(String), byParty: true }]);
  });

  it('a repeat join returning the existing entry publishes nothing', async () => {
    const body = createBody();
    await postJoin(t, body);
    const got = await during(() => postJoin(t, body));
    expect(got).toEqual([]);
  });

  it('host add → one add', async () => {
    let id = '';
    const got = await during(async () => {
      id = await walkIn();
    });
    expect(got.map((e) => [e.type, e.entryId])).toEqual([['add', id]]);
  });

  it.each([
    ['edit', 'update', (id: string) => host.patch(`/entries/${id}`, { priority: true })],
    ['call', 'call', (id: string) => host.post(`/entries/${id}/call`)],
    ['seat', 'seat', (id: string) => host.post(`/entries/${id}/seat`)],
    ['host cancel', 'cancel', (id: string) => host.post(`/entries/${id}/cancel`, { reason: 'Host' })],
    ['no-show', 'cancel', (id: string) => host.post(`/entries/${id}/cancel`, { reason: 'NoShow' })],
    ['remove', 'remove', (id: string) => host.post(`/entries/${id}/cancel`, { reason: 'Removed' })],
    [
      'diner cancel',
      'cancel',
      (id: string) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/cancel`,
          payload: { logs: { customer: id, actionType: 'Remove' }, customer: id, cancelReason: 'Customer' },
        }),
    ],
  ] as const)('%s → one %s with the entry id', async (name, type, change) => {
    const id = await walkIn();
    const got = await during(async () => expect((await change(id)).statusCode).toBe(200));
    const byParty = name === 'diner cancel' ? { byParty: true } : {};
    expect(got).toEqual([{ type, venueId: DEMO_BISTRO_ID, entryId: id, at: expect.any(String), ...byParty }]);
  });

  it.each([
    ['lock', () => host.put('/waitlist', { active: true, locked: true })],
    ['close', () => host.put('/waitlist', { active: false, locked: false })],
    ['open', () => host.put('/waitlist', { active: true, locked: false })],
    ['settings', () => host.patch('/settings', { settings: { hidePosition: false } })],
  ] as const)('%s → one update without an entry id', async (_name, change) => {
    const got = await during(async () => expect((await change()).statusCode).toBe(200));
    expect(got).toEqual([{ type: 'update', venueId: DEMO_BISTRO_ID, at: expect.any(String) }]);
  });

  it('a refused change publishes nothing', async () => {
    const id = await walkIn();
    await host.post(`/entries/${id}/seat`);
    const got = await during(async () => {
      await host.post(`/entries/${id}/call`);
      await host.patch(`/entries/${id}`, { partySize: 99 });
      await host.post(`/entries/${id}/cancel`, { reason: 'Host' });
    });
    expect(got).toEqual([]);
  });
});
