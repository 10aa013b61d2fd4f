import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runRetentionJob } from '../../jobs/retention.js';
import { DEMO_BISTRO_ID, createBody, nextPhone, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { updateVenue } from '../venues/venues.repository.js';
import { announceVenueUpdate } from '../queue/index.js';

const RACERS = 12;
const newKey = () => randomBytes(16).toString('base64url');

/**
 * Idempotent joins (docs/product.md §3): a join's Idempotency-Key is answered with its first
 * answer for a day, on both stores, also when requests with one key race; never a second entry.
 */
describe.each(stores)('joins with an Idempotency-Key on $name', (store) => {
  const t = useTestApp(store, { RATE_LIMIT_JOINS_PER_10_MIN: '100000', RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000' });

  const join = (venueId: string, body: object, key?: string) =>
    postJoin(t, body as Record<string, unknown>, { venueId, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });
  const entriesAt = async (venueId: string) =>
    (await t.db.kysely.selectFrom('entries').select('id').where('venue_id', '=', venueId).execute()).length;
  const setLocked = async (venueId: string, locked: boolean) => {
    await updateVenue(t.db.kysely, venueId, { waitlist_locked: locked ? 1 : 0 });
    announceVenueUpdate(t.app.queueDeps, venueId);
  };

  it('answers a key seen again with the first answer (same status and body) and makes one entry', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const key = newKey();
    const body = createBody({}, venueId);
    const first = await join(venueId, body, key);
    const again = await join(venueId, body, key);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ created: true, globalPos: 1 });
    expect(first.json().joinProof).toEqual(expect.any(String));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await entriesAt(venueId)).toBe(1);
  });

  it(`${RACERS} requests racing with one key make one entry and all get its answer`, async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const key = newKey();
    const body = createBody({}, venueId);
    const answers = await Promise.all(Array.from({ length: RACERS }, () => join(venueId, body, key)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(RACERS).fill(201));
    const first = answers[0]?.json();
    for (const answer of answers) expect(answer.json()).toEqual(first);
    expect(await entriesAt(venueId)).toBe(1);
  });

  it('keys keep joins apart: other keys at once make their own entries', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const answers = await Promise.all(Array.from({ length: RACERS }, () => join(venueId, createBody({}, venueId), newKey())));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(RACERS).fill(201));
    expect(await entriesAt(venueId)).toBe(RACERS);
  });

  it('refuses a key reused with a different body with 422 IDEMPOTENCY_KEY_REUSED naming the header', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const key = newKey();
    const first = await join(venueId, createBody({}, venueId), key);
    const other = await join(venueId, createBody({ customer: { phone: nextPhone() } }, venueId), key);
    expect(first.statusCode).toBe(201);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'Idempotency-Key' });
    expect(await entriesAt(venueId)).toBe(1);
  });

  it('refuses the same key at another venue (another body) without a 5xx', async () => {
    const a = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const b = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const key = newKey();
    const phone = nextPhone();
    const [one, two] = await Promise.all([
      join(a, createBody({ customer: { phone } }, a), key),
      join(b, createBody({ customer: { phone } }, b), key),
    ]);
    expect([one?.statusCode, two?.statusCode].sort()).toEqual([201, 422]);
    expect((await entriesAt(a)) + (await entriesAt(b))).toBe(1);
  });

  it.each([
    ['too short', 'abc1234'],
    ['too long', 'a'.repeat(129)],
    ['a character outside [A-Za-z0-9_-]', 'key with spaces'],
    ['empty', ''],
  ])('refuses a malformed key (%s) with 422 naming the header, creating nothing', async (_, key) => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const res = await join(venueId, createBody({}, venueId), key);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'Idempotency-Key' });
    expect(res.json().message).toContain('Idempotency-Key');
    expect(await entriesAt(venueId)).toBe(0);
  });

  it('a join without a key works as before', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    expect((await join(venueId, createBody({}, venueId))).statusCode).toBe(201);
  });

  it('answers the first answer again even once the list is locked (the retry of a join that was made)', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const key = newKey();
    const body = createBody({}, venueId);
    const first = await join(venueId, body, key);
    await setLocked(venueId, true);
    const again = await join(venueId, body, key);
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json()).toEqual(first.json());
  });

  it('a refused join keeps no key: the same key after the refusal is tried afresh', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, { waitlist_locked: 1 });
    const key = newKey();
    const body = createBody({}, venueId);
    const refused = await join(venueId, body, key);
    expect(refused.statusCode).toBe(409);
    await setLocked(venueId, false);
    const retried = await join(venueId, body, key);
    expect(retried.statusCode).toBe(201);
    expect(await entriesAt(venueId)).toBe(1);
  });

  it('the retention job deletes keys older than a day', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const key = newKey();
    expect((await join(venueId, createBody({}, venueId), key)).statusCode).toBe(201);
    const kept = () => t.db.kysely.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute();
    const options = { retentionHours: 24 * 30, openMaxHours: 24 * 30 };
    await runRetentionJob(t.app.queueDeps, options, t.clock.now + 23 * 3_600_000);
    expect(await kept()).toHaveLength(1);
    await runRetentionJob(t.app.queueDeps, options, t.clock.now + 24 * 3_600_000 + 1);
    expect(await kept()).toHaveLength(0);
  });
});
