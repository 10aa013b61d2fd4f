import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { outbox } from '../../../test/identity.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';

let serial = 0;
/** A fresh Brazilian mobile, as digits (11 9xxxx-xxxx), to be written in several spellings. */
const freshLocal = () => `9${String(71_000_000 + ((++serial * 7_919 + Math.floor(Math.random() * 900)) % 28_000_000)).padStart(8, '0')}`;

/**
 * Decisions §3: a repeat join with the same phone makes no second entry and never hands out the
 * entry's id (its key) to whoever cannot show the first join's proof; the link goes again by SMS
 * to the entry's own phone, at most once a minute.
 */
describe.each(stores)('repeat join on $name', (store) => {
  const t = useTestApp(store);
  let venueId: string;
  beforeAll(async () => {
    venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
  });

  const join = (name: string, phone: string, extra: Record<string, unknown> = {}) =>
    postJoin(t, { customer: { name, phone }, ...extra }, { venueId });
  const entriesOf = (e164: string) =>
    t.db.kysely.selectFrom('entries').select(['id', 'share_id', 'name']).where('phone', '=', e164).execute();
  const smsKeysTo = async (e164: string) =>
    (await t.db.kysely.selectFrom('messages').select('idempotency_key').where('recipient', '=', e164).orderBy('created_at').execute()).map(
      (m) => m.idempotency_key,
    );

  it('a stranger with the same phone in another spelling and another name gets no id, and the link goes again by SMS once a minute', async () => {
    const local = freshLocal();
    const e164 = `+5511${local}`;
    const first = await join('Ana Souza', `+55 11 ${local.slice(0, 5)}-${local.slice(5)}`);
    expect(first.statusCode).toBe(201);
    const { _id: id, joinProof } = first.json();
    expect(joinProof).toMatch(/^[\w-]{43}$/);
    const [entry] = await entriesOf(e164);
    expect(entry?.id).toBe(id);

    const again = await join('Mallory Intruder', `(11) ${local.slice(0, 5)} ${local.slice(5)}`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      statusCode: 409,
      code: 'ALREADY_ON_WAITLIST',
      message: 'You are already on this waitlist; we sent the link to your phone again by SMS.',
    });
    // Neither the entry's key nor its read-only share id, anywhere in the answer.
    expect(again.body).not.toContain(id);
    expect(again.body).not.toContain(entry?.share_id);
    expect(again.body).not.toContain('_id');
    expect(await entriesOf(e164)).toEqual([{ id, share_id: entry?.share_id, name: 'Ana Souza' }]);
    expect(await smsKeysTo(e164)).toEqual([`join:${id}`, `rejoin:${id}:${t.clock.now}`]);
    // The SMS went to the entry's own phone, with the plain link (no login passport).
    const resent = (await outbox(t)).filter((m) => m.to === e164);
    expect(resent).toHaveLength(2);
    // The plain link (no passport), then which replies work (docs/product.md §7).
    expect(resent[0]?.body).toMatch(new RegExp(`/waitlist/${id} Responda 1 \\(a caminho\\) ou 9 \\(sair\\)\\.$`));

    // Again at once, and 30 s later: no further SMS inside the minute.
    expect((await join('Mallory Intruder', `11${local}`)).statusCode).toBe(409);
    t.clock.now += 30_000;
    expect((await join('Mallory Intruder', `+55 (11) ${local}`)).statusCode).toBe(409);
    expect(await smsKeysTo(e164)).toHaveLength(2);
    // A minute after the last one, once more.
    t.clock.now += 31_000;
    expect((await join('Mallory Intruder', e164)).statusCode).toBe(409);
    expect(await smsKeysTo(e164)).toHaveLength(3);
    expect(await entriesOf(e164)).toHaveLength(1);
  });

  it('the browser that made the first join gets its entry back with its proof; a wrong proof gets nothing', async () => {
    const local = freshLocal();
    const e164 = `+5511${local}`;
    const first = (await join('Bia Lima', e164)).json();
    const other = (await join('Caio Lima', `+5511${freshLocal()}`)).json();

    const wrong = await join('Bia Lima', e164, { joinProof: other.joinProof });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.body).not.toContain(first._id);
    const forged = await join('Bia Lima', e164, { joinProof: 'A'.repeat(43) });
    expect(forged.statusCode).toBe(409);

    const mine = await join('Bia Lima', `11 ${local}`, { joinProof: first.joinProof });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ _id: first._id, created: false, globalPos: first.globalPos });
    expect(await entriesOf(e164)).toHaveLength(1);
  });

  it('once the entry has ended, the same phone joins anew', async () => {
    const e164 = `+5511${freshLocal()}`;
    const first = (await join('Davi Rocha', e164)).json();
    const cancel = await t.app.inject({
      method: 'PUT',
      url: `/api/waitlists/${first._id}/${venueId}/cancel`,
      payload: { logs: { customer: first._id, actionType: 'Remove' }, customer: first._id, cancelReason: 'Customer' },
    });
    expect(cancel.statusCode).toBe(200);
    const later = await join('Davi Rocha', e164);
    expect(later.statusCode).toBe(201);
    expect(later.json()._id).not.toBe(first._id);
  });

  it('refuses a proof that is not a string or is too long with 422', async () => {
    for (const joinProof of [42, 'x'.repeat(101)]) {
      const res = await join('Eva Prado', `+5511${freshLocal()}`, { joinProof });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'joinProof' });
    }
  });
});
