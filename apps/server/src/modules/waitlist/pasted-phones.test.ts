import { describe, expect, it } from 'vitest';
import { postJoin, countRows } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';

/** docs/product.md §15: phones as people paste them join, stored as E.164; a landline never does. */
describe.each(stores)('pasted phones on $name', (store) => {
  const t = useTestApp(store);
  const host = hostApi(t);
  const join = (phone: string) => postJoin(t, { customer: { phone } });
  const walkIn = (phone: string) => host.post('/entries', { customer: { name: 'Rui Costa', phone }, partySize: 2 });
  const storedPhone = async (id: string) =>
    (await t.db.kysely.selectFrom('entries').select('phone').where('id', '=', id).executeTakeFirstOrThrow()).phone;
  const count = () => countRows(t.db, 'entries');

  it.each([
    ['+55 11 98765-4301', '+5511987654301'],
    ['55 (11) 98765 4302', '+5511987654302'],
    ['011 98765-4303', '+5511987654303'],
    ['(11)98765-4304', '+5511987654304'],
    ['+55 (11) 97777-6543', '+5511977776543'],
    ['11987654306', '+5511987654306'],
    ['11.98765.4307', '+5511987654307'],
    ['(55) 98765-4308', '+5555987654308'],
  ])('a diner who pastes %j joins, stored as %s', async (pasted, e164) => {
    const res = await join(pasted);
    expect(res.statusCode).toBe(201);
    expect(await storedPhone(res.json()._id)).toBe(e164);
  });

  it('the same phone pasted another way is the same party (docs/product.md §3.5)', async () => {
    const first = await join('+55 (21) 99876-5401');
    expect(first.statusCode).toBe(201);
    const again = await join('021 99876 5401');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_ON_WAITLIST');
  });

  it.each([['+55 11 3456-7890'], ['(11) 3456-7890'], ['55 21 2345 6789']])(
    'a landline %j is refused with 422 at customer.phone, adding nothing',
    async (landline) => {
      const before = await count();
      for (const res of [await join(landline), await walkIn(landline)]) {
        expect(res.statusCode).toBe(422);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'customer.phone', message: 'Use a mobile number' });
      }
      expect(await count()).toBe(before);
    },
  );

  it.each([
    ['+55 (11) 96543-2101', '+5511965432101'],
    ['011 96543-2102', '+5511965432102'],
    ['55 (11) 96543 2103', '+5511965432103'],
  ])('staff add a walk-in pasted as %j, stored as %s', async (pasted, e164) => {
    const res = await walkIn(pasted);
    expect(res.statusCode).toBe(201);
    expect(res.json().entry.phone).toBe(e164);
    expect(await storedPhone(res.json().entry._id)).toBe(e164);
  });

  it('a foreign phone follows the venue’s SMS countries: refused to a diner, taken from staff', async () => {
    const diner = await join('+1 (415) 555-2671');
    expect(diner.statusCode).toBe(422);
    expect(diner.json()).toMatchObject({ code: 'PHONE_COUNTRY_NOT_ALLOWED', field: 'customer.phone' });
    const staff = await walkIn('+1 (415) 555-2671');
    expect(staff.statusCode).toBe(201);
    expect(staff.json().entry.phone).toBe('+14155552671');
  });

  it('an invalid phone is refused as invalid, not as a landline', async () => {
    for (const res of [await join('(11) 8765-4321'), await walkIn('98765-4321')]) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'customer.phone', message: 'Invalid phone number' });
    }
  });
});
