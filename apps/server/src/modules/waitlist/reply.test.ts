import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, joinParty } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';

/** The party answers from its position page (docs/product.md §7). */
describe.each(stores)('answers from the position page on $name', (store) => {
  const t = useTestApp(store);

  const join = async () => {
    const { id } = await joinParty(t);
    const position = await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` });
    return { id, shareId: position.json().waitlist.shareId as string };
  };
  const answer = (id: string, payload: unknown, venue = DEMO_BISTRO_ID, lng = '') =>
    t.app.inject({ method: 'POST', url: `/api/waitlists/${id}/${venue}/reply${lng}`, payload: payload as object });
  const host = hostApi(t);

  it('while waiting: I need more time and I am here; the answer is the position answer and can be changed', async () => {
    const { id } = await join();
    const more = await answer(id, { reply: 'needMoreTime', minutes: 15 });
    expect(more.statusCode).toBe(200);
    expect(more.json().waitlist).toMatchObject({ status: 'active', reply: { kind: 'needMoreTime', minutes: 15 } });
    const here = await answer(id, { reply: 'arrived' }, DEMO_BISTRO_ID, '?lng=en');
    expect(here.json().waitlist.reply).toMatchObject({ kind: 'arrived', minutes: null });
    expect(here.json().waitlist.displayHelpers.partyLabel).toBe('2 people');
    // Every reader sees the latest answer, the console too.
    expect((await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json().waitlist.reply.kind).toBe('arrived');
    const card = (await host.get('/entries')).json().entries.find((e: { _id: string }) => e._id === id);
    expect(card.reply).toMatchObject({ kind: 'arrived', minutes: null });
    expect(Date.parse(card.reply.at)).not.toBeNaN();
  });

  it('once called: on my way; more time extends the hold window once', async () => {
    const { id } = await join();
    const called = (await host.post(`/entries/${id}/call`)).json().entry;
    expect(called).toMatchObject({ status: 'called', calls: 1 });
    const holdUntil = Date.parse(called.holdUntil);
    expect(holdUntil - Date.parse(called.calledAt)).toBe(10 * 60_000);
    expect((await answer(id, { reply: 'onMyWay' })).json().waitlist.reply.kind).toBe('onMyWay');
    const more = (await answer(id, { reply: 'needMoreTime', minutes: 5 })).json().waitlist;
    expect(Date.parse(more.holdUntil)).toBe(holdUntil + 5 * 60_000);
    const again = (await answer(id, { reply: 'needMoreTime', minutes: 10 })).json().waitlist;
    expect(Date.parse(again.holdUntil)).toBe(holdUntil + 5 * 60_000);
    expect(again.reply).toMatchObject({ kind: 'needMoreTime', minutes: 10 });
  });

  it('a shared link reads the answer but cannot answer (403), and nothing changes', async () => {
    const { id, shareId } = await join();
    await answer(id, { reply: 'arrived' });
    const res = await answer(shareId, { reply: 'onMyWay' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('SHARED_LINK_READ_ONLY');
    const shared = (await t.app.inject({ method: 'GET', url: `/api/waitlists/${shareId}/position` })).json().waitlist;
    expect(shared.reply.kind).toBe('arrived');
  });

  it('409 once the party is no longer waiting or called', async () => {
    const { id } = await join();
    await host.post(`/entries/${id}/seat`);
    const res = await answer(id, { reply: 'onMyWay' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ENTRY_NOT_ACTIVE');
  });

  it("422 naming the field for a wrong answer; 400 for a malformed id; the venue must be the entry's", async () => {
    const { id } = await join();
    for (const [payload, field] of [
      [{ reply: 'needMoreTime' }, 'minutes'],
      [{ reply: 'needMoreTime', minutes: 7 }, 'minutes'],
      [{ reply: 'onMyWay', minutes: 5 }, 'minutes'],
      [{ reply: 'dancing' }, 'reply'],
      [{ reply: 'arrived', extra: 1 }, 'extra'],
    ] as const) {
      const res = await answer(id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().field).toBe(field);
    }
    expect((await answer('nope', { reply: 'arrived' })).json().code).toBe('INVALID_WAITLISTID_FORMAT');
    expect((await answer(id, { reply: 'arrived' }, DEMO_CLUB_ID)).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json().waitlist.reply).toBeNull();
  });
});
