import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody, nextPhone, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { hostApi } from '../../../test/staff-session.js';
import { addVenueLike } from '../../../test/venues.js';

const JOINS = 200;
const REPEATS = 20;

/** Joins are transactional (docs/decisions/001-contract-and-store.md): simultaneous joins never share or skip a ticket number. */
describe.each(stores)('simultaneous joins on $name', (store) => {
  const t = useTestApp(store, { RATE_LIMIT_JOINS_PER_10_MIN: '100000' });

  const join = (venueId: string, body: Record<string, unknown>) => postJoin(t, body, { venueId });
  const nextSeqOf = async (venueId: string) =>
    (await t.db.kysely.selectFrom('venues').select('next_seq').where('id', '=', venueId).executeTakeFirstOrThrow()).next_seq;
  const position = async (id: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` });
    expect(res.statusCode).toBe(200);
    return res.json().waitlist as { globalPos: number; customerTab: string };
  };

  it(`${JOINS} joins at once get ${JOINS} distinct, contiguous positions and tickets`, async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const answers = await Promise.all(Array.from({ length: JOINS }, () => join(venueId, createBody({}, venueId))));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(JOINS).fill(201));
    const bodies = answers.map((r) => r.json() as { _id: string; created: boolean; globalPos: number });
    const expected = Array.from({ length: JOINS }, (_, i) => i + 1);

    expect(new Set(bodies.map((b) => b._id)).size).toBe(JOINS);
    // The position answered by the join itself: nobody ahead leaves in this test, so 1..200.
    expect(bodies.map((b) => b.globalPos).sort((a, b) => a - b)).toEqual(expected);

    const read = await Promise.all(bodies.map((b) => position(b._id)));
    expect(read.map((p) => p.globalPos).sort((a, b) => a - b)).toEqual(expected);
    expect(read.map((p) => Number(p.customerTab)).sort((a, b) => a - b)).toEqual(expected);
    // Each entry's ticket and place agree: the queue order is the ticket order.
    for (const p of read) expect(Number(p.customerTab)).toBe(p.globalPos);

    const rows = await t.db.kysely.selectFrom('entries').select('seq').where('venue_id', '=', venueId).execute();
    expect(rows).toHaveLength(JOINS);
    const venue = await t.db.kysely.selectFrom('venues').select('next_seq').where('id', '=', venueId).executeTakeFirstOrThrow();
    expect(venue.next_seq).toBe(JOINS + 1);
  });

  it(`the same phone sent ${REPEATS} times at once makes exactly one entry, hands its id to one caller and re-sends the link once`, async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const phone = nextPhone();
    const answers = await Promise.all(Array.from({ length: REPEATS }, () => join(venueId, createBody({ customer: { phone } }, venueId))));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    // Decisions §3: the others learn only that the party is on the list, never its id.
    expect(statuses.filter((s) => s === 409)).toHaveLength(REPEATS - 1);
    const created = answers.find((r) => r.statusCode === 201)?.json() as { _id: string; globalPos: number };
    expect(created.globalPos).toBe(1);
    for (const r of answers.filter((a) => a.statusCode === 409)) {
      expect(r.json().code).toBe('ALREADY_ON_WAITLIST');
      expect(r.body).not.toContain(created._id);
    }

    const rows = await t.db.kysely.selectFrom('entries').select(['id', 'seq']).where('venue_id', '=', venueId).execute();
    expect(rows).toEqual([{ id: created._id, seq: 1 }]);
    // No repeat took a ticket: the next one is 2.
    expect(await nextSeqOf(venueId)).toBe(2);
    // The join's SMS and a single repeat: concurrent repeats inside a minute send the link once.
    const keys = await t.db.kysely
      .selectFrom('messages')
      .select('idempotency_key')
      .where('idempotency_key', 'like', `%${created._id}%`)
      .execute();
    expect(keys.map((k) => k.idempotency_key.split(':')[0]).sort()).toEqual(['join', 'rejoin']);
  });

  it('a join that makes no entry takes no ticket: a repeat with its proof, a retried key, a refused join', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const phone = nextPhone();
    const headers = { 'idempotency-key': `ticket-${phone.replace(/\D/g, '')}` };
    const body = { customer: { phone } };
    const first = await postJoin(t, body, { venueId, headers });
    expect(first.statusCode).toBe(201);
    // The same key again (a retry): its first answer, no entry.
    const retried = await postJoin(t, body, { venueId, headers });
    expect(retried.statusCode).toBe(201);
    expect(retried.json()._id).toBe(first.json()._id);
    // The first join's proof: the entry again (200), no entry.
    const proven = await postJoin(t, { ...body, joinProof: first.json().joinProof }, { venueId });
    expect(proven.statusCode).toBe(200);
    // Refused (a party too big for the venue): rolled back with the rest of its transaction.
    const refused = await postJoin(t, { partySize: 99 }, { venueId });
    expect(refused.statusCode).toBe(422);
    expect(await nextSeqOf(venueId)).toBe(2);
    const second = await postJoin(t, {}, { venueId });
    expect(second.statusCode).toBe(201);
    const rows = await t.db.kysely.selectFrom('entries').select('seq').where('venue_id', '=', venueId).orderBy('seq').execute();
    expect(rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(await nextSeqOf(venueId)).toBe(3);
  });

  it('joins and calls at once at one venue all succeed: a call waits for no join and no join for a call', async () => {
    // The join locks the venue's row; a call's message points at the venue too. On PostgreSQL that
    // reference must not wait for the join's lock while the call holds the queue's counts (deadlock).
    const host = hostApi(t);
    await host.cookie();
    const first = await Promise.all(Array.from({ length: 30 }, () => join(DEMO_BISTRO_ID, createBody())));
    expect(first.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
    const call = (id: string) => host.post(`/entries/${id}/call`);
    const answers = await Promise.all(first.flatMap((r) => [call(r.json()._id as string), join(DEMO_BISTRO_ID, createBody())]));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(30).fill(200), ...Array(30).fill(201)]);
  });

  it('simultaneous joins at two venues keep each venue its own ticket sequence', async () => {
    const [a, b] = await Promise.all([addVenueLike(t.db, DEMO_BISTRO_ID), addVenueLike(t.db, DEMO_BISTRO_ID)]);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const venueId = i % 2 === 0 ? a : b;
        return join(venueId, createBody({}, venueId));
      }),
    );
    expect(answers.every((r) => r.statusCode === 201)).toBe(true);
    for (const venueId of [a, b]) {
      const rows = await t.db.kysely.selectFrom('entries').select('seq').where('venue_id', '=', venueId).orderBy('seq').execute();
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    }
  });
});
