import type { PositionResponse } from '@vez/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone, joinParty } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { type SseClient, openSse } from '../../../test/sse-client.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';

const position = (m: { data: string }) => JSON.parse(m.data) as PositionResponse;
const isPosition = (m: { event: string }) => m.event === 'position';

describe.each(stores)('real-time streams on $name', (store) => {
  const t = useTestApp(store, { SSE_HEARTBEAT_SECONDS: '0.1' }, { listen: true });
  const open: SseClient[] = [];
  afterAll(() => {
    for (const c of open) c.close();
  });

  const sse = async (path: string, headers: Record<string, string> = {}) => {
    const client = await openSse(`${t.baseUrl}/api${path}`, headers);
    open.push(client);
    return client;
  };
  const host = hostApi(t);
  const join = async (name = 'Ana Souza', partySize = 2) =>
    (await joinParty(t, { customer: { name, phone: nextPhone(), email: '' }, partySize, note: `nota de ${name}` })).id;
  const getPosition = async (id: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json() as PositionResponse;

  it('a diner stream opens with the entry’s position, the same as GET position', async () => {
    const id = await join();
    const stream = await sse(`/waitlists/${id}/events`);
    expect(stream.status).toBe(200);
    const first = await stream.next(isPosition);
    expect(position(first)).toEqual(await getPosition(id));
    stream.close();
  });

  it('follows changes ahead and its own call; positions agree with GET position', async () => {
    const ahead = await join('Bruno Lima');
    const id = await join('Clara Dias');
    const stream = await sse(`/waitlists/${id}/events`);
    const before = position(await stream.next(isPosition)).waitlist.globalPos;
    await host.post(`/entries/${ahead}/seat`);
    const moved = position(await stream.next(isPosition));
    expect(moved.waitlist.globalPos).toBe((before ?? Number.NaN) - 1);
    expect(moved).toEqual(await getPosition(id));
    await host.post(`/entries/${id}/call`);
    const called = position(await stream.next((m) => isPosition(m) && position(m).waitlist.status === 'called'));
    expect(called.waitlist).toMatchObject({ status: 'called', globalPos: 0, notifiedAt: expect.any(String) });
    await host.post(`/entries/${id}/seat`);
    expect(position(await stream.next(isPosition)).waitlist.status).toBe('seated');
    stream.close();
  });

  it('a party joining behind leaves the page unwritten: the next message is the next move', async () => {
    const id = await join('Julia Frente');
    const stream = await sse(`/waitlists/${id}/events`);
    const first = position(await stream.next(isPosition));
    await join('Kleber Atras');
    // Nothing for Julia: her place and estimate stand. A priority party then goes ahead of her.
    await host.post('/entries', { customer: { name: 'Lia Prioridade', phone: nextPhone() }, partySize: 2, priority: true });
    const moved = position(await stream.next(isPosition));
    expect(moved.waitlist.globalPos).toBe((first.waitlist.globalPos ?? Number.NaN) + 1);
    expect(moved).toEqual(await getPosition(id));
    stream.close();
  });

  it('a venue that hides positions streams no position figures at all (docs/product.md §4)', async () => {
    const ahead = await join('Hugo Antes');
    const id = await join('Iris Oculta');
    expect((await host.patch('/settings', { settings: { hidePosition: true } })).statusCode).toBe(200);
    try {
      const own = await sse(`/waitlists/${id}/events`);
      const shared = await sse(`/waitlists/${(await getPosition(id)).waitlist.shareId!}/events`);
      const first = position(await own.next(isPosition));
      await shared.next(isPosition);
      await host.post(`/entries/${ahead}/seat`);
      const moved = position(await own.next(isPosition));
      await shared.next(isPosition);
      expect(moved).toEqual(await getPosition(id));
      for (const message of [first, moved]) {
        expect(message.waitlistSettings.hiddenCustomerPosition).toBe(true);
        for (const key of ['globalPos', 'pos', 'estimatedTime']) expect(message.waitlist).not.toHaveProperty(key);
      }
      for (const raw of [own.raw(), shared.raw()]) expect(raw).not.toMatch(/globalPos|"pos"|estimatedTime/);
      own.close();
      shared.close();
    } finally {
      await host.patch('/settings', { settings: { hidePosition: false } });
    }
  });

  it('never carries another diner’s name, phone or note', async () => {
    const id = await join('Dora Propria');
    const other = await join('Otavio Segredo');
    const stream = await sse(`/waitlists/${id}/events`);
    await stream.next(isPosition);
    // Behind Dora, then given priority: ahead of her, so her page moves (and gets a message).
    await host.patch(`/entries/${other}`, { note: 'alergia secreta', priority: true });
    await stream.next(isPosition);
    // With priority, ahead of Dora: her page moves (a party behind her leaves it as it was, unwritten).
    const walkIn = (
      await host.post('/entries', {
        customer: { name: 'Walter Intruso', phone: '+5511912345678' },
        partySize: 3,
        note: 'mesa escondida',
        priority: true,
      })
    ).json().entry._id;
    await stream.next(isPosition);
    await host.post(`/entries/${walkIn}/call`);
    await stream.next(isPosition);
    const text = stream.raw();
    expect(text).toContain('Dora Propria');
    for (const secret of ['Otavio', 'Segredo', 'alergia', 'Walter', 'Intruso', '912345678', 'mesa escondida', 'Marina', '+55119876500']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain(other);
    stream.close();
  });

  it('a shared link streams the read-only view: first name only, no share id to pass on', async () => {
    const id = await join('Elisa Ramos');
    const shareId = (await getPosition(id)).waitlist.shareId!;
    const stream = await sse(`/waitlists/${shareId}/events?lng=en`);
    const first = position(await stream.next(isPosition));
    expect(first.waitlist).toMatchObject({ _id: shareId, isShared: true, shareId: null, customer: { name: 'Elisa' } });
    expect(first.waitlist.displayHelpers.partyLabel).toBe('2 people');
    await host.post(`/entries/${id}/call`);
    const called = position(await stream.next((m) => position(m).waitlist.status === 'called'));
    expect(called.waitlist).toMatchObject({ _id: shareId, shareId: null, customer: { name: 'Elisa' } });
    expect(stream.raw()).not.toContain(id);
    stream.close();
  });

  it('a reconnect loses nothing: it opens with a fresh snapshot', async () => {
    const id = await join('Fabio Reis');
    const first = await sse(`/waitlists/${id}/events`);
    expect(position(await first.next(isPosition)).waitlist.status).toBe('active');
    first.close();
    await host.post(`/entries/${id}/call`);
    const again = await sse(`/waitlists/${id}/events`);
    expect(position(await again.next(isPosition)).waitlist.status).toBe('called');
    again.close();
    await host.post(`/entries/${id}/seat`);
    const ended = await sse(`/waitlists/${id}/events`);
    const last = position(await ended.next(isPosition));
    expect(last).toEqual(await getPosition(id));
    expect(last.waitlist.status).toBe('seated');
    ended.close();
  });

  it('the host stream opens with the whole queue and follows every change with its events', async () => {
    const stream = await sse(`/host/venues/${DEMO_BISTRO_ID}/events`, { cookie: await host.cookie() });
    expect(stream.status).toBe(200);
    const snapshot = JSON.parse((await stream.next((m) => m.event === 'queue')).data);
    expect(snapshot.events).toEqual([]);
    expect(snapshot.entries.length).toBeGreaterThan(0);
    const id = await join('Gabi Nunes');
    const next = JSON.parse((await stream.next((m) => m.event === 'queue' && m.data.includes(id))).data);
    expect(next.events.map((e: { type: string }) => e.type)).toContain('add');
    expect(next.entries.find((e: { _id: string }) => e._id === id)).toMatchObject({ name: 'Gabi Nunes', note: 'nota de Gabi Nunes' });
    await host.put('/waitlist', { active: true, locked: true });
    const locked = JSON.parse((await stream.next((m) => m.event === 'queue' && JSON.parse(m.data).waitlist.locked)).data);
    expect(locked.events).toContainEqual(expect.objectContaining({ type: 'update' }));
    await host.put('/waitlist', { active: true, locked: false });
    stream.close();
  });

  it('advanced mode: streamed band positions equal GET position for every party', async () => {
    await host.patch('/settings', { settings: { operationMode: 'advanced' } });
    const ids = [await join('Hugo Alves', 2), await join('Iris Melo', 5), await join('Joao Pinto', 2), await join('Kaio Luz', 5)];
    const streams = await Promise.all(ids.map((id) => sse(`/waitlists/${id}/events`)));
    await Promise.all(streams.map((s) => s.next(isPosition)));
    await host.post(`/entries/${ids[0]}/seat`);
    for (const [i, s] of streams.entries()) {
      const got = position(await s.next(isPosition));
      expect(got).toEqual(await getPosition(ids[i]!));
    }
    for (const s of streams) s.close();
    await host.patch('/settings', { settings: { operationMode: 'basic' } });
  });

  it('after a burst of mixed changes every stream agrees with GET position', async () => {
    const ids = await Promise.all(
      ['Mara Luz', 'Nilo Reis', 'Olga Paz', 'Pio Lins', 'Rita Sa', 'Saulo Vaz'].map((n, i) => join(n, (i % 4) + 1)),
    );
    const streams = await Promise.all(ids.map((id) => sse(`/waitlists/${id}/events`)));
    await Promise.all(streams.map((s) => s.next(isPosition)));
    await Promise.all([
      host.patch(`/entries/${ids[4]}`, { priority: true }),
      host.post(`/entries/${ids[0]}/call`),
      host.post(`/entries/${ids[1]}/cancel`, { reason: 'NoShow' }),
      join('Tiago Rios'),
      host.patch(`/entries/${ids[2]}`, { partySize: 5 }),
    ]);
    await host.post(`/entries/${ids[3]}/seat`);
    for (const [i, id] of ids.entries()) {
      const expected = await getPosition(id);
      let last = position(await streams[i]!.next(isPosition));
      while (JSON.stringify(last) !== JSON.stringify(expected)) last = position(await streams[i]!.next(isPosition));
      expect(last).toEqual(expected);
    }
    for (const s of streams) s.close();
  });

  it('writes heartbeat comments on idle streams', async () => {
    const stream = await sse(`/waitlists/${await join('Lara Sol')}/events`);
    while (!stream.raw().includes(': hb')) await new Promise((r) => setTimeout(r, 20));
    expect(stream.raw()).toContain('\n: hb\n\n');
    stream.close();
  });

  it('answers JSON errors before a stream starts', async () => {
    const bad = await sse('/waitlists/not-an-id/events');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.raw()).code).toBe('INVALID_WAITLISTID_FORMAT');
    const unknown = await sse('/waitlists/AAAAAAAAAAAAAAAAAAAAAA/events');
    expect(unknown.status).toBe(404);
    const anonymousHost = await sse(`/host/venues/${DEMO_BISTRO_ID}/events`);
    expect(anonymousHost.status).toBe(401);
  });
});
