import { defaultVenueSettings, smsSegments } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, joinParty } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { outbox } from '../../../test/identity.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { toE164 } from '../../lib/phone.js';
import { callEntry, findEntryById } from '../queue/index.js';

const BASE = 'https://vez.example';
/** 30 characters, with the accents of many Brazilian names (the built-in texts' worst case, docs/product.md §8). */
const LONG_NAME = 'Cantina e Pizzaria São Gonçalo';

/** "SMS sem acentos" (docs/product.md §8): what the outbox got, on both stores. */
describe.each(stores)('SMS sem acentos on $name', (store) => {
  const t = useTestApp(store, { PUBLIC_BASE_URL: BASE });

  /** A venue like the demo bistro, named LONG_NAME, with this settings row as stored. */
  const venue = async (settings: object) => {
    const id = await addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify(settings) });
    await t.db.kysely.updateTable('venues').set({ name_pt: LONG_NAME }).where('id', '=', id).execute();
    return id;
  };
  const join = async (venueId: string) => {
    const party = await joinParty(t, {}, { venueId });
    return { id: party.id, phone: toE164(party.phone)! };
  };
  const smsTo = async (phone: string) => (await outbox(t)).filter((m) => m.to === phone).map((m) => m.body);
  const call = async (id: string) => callEntry(t.app.queueDeps, (await findEntryById(t.db.kysely, id))!);

  it('by default a Portuguese join and call go without accents, one GSM-7 segment each, from a row stored before the option', async () => {
    const { smsWithoutAccents, ...before } = defaultVenueSettings;
    expect(smsWithoutAccents).toBe(true);
    const venueId = await venue({ ...before, holdMinutes: 120 });
    const party = await join(venueId);
    await call(party.id);
    const [called, joined] = await smsTo(party.phone);
    expect(joined).toBe(
      `Cantina e Pizzaria Sao Goncalo: voce esta na fila. Acompanhe: ${BASE}/waitlist/${party.id} Responda 1 (a caminho) ou 9 (sair).`,
    );
    expect(called).toBe(
      `Cantina e Pizzaria Sao Goncalo: sua vez! Va à recepcao em até 120 min. ${BASE}/waitlist/${party.id} Responda 1 (a caminho) ou 9 (sair).`,
    );
    for (const sms of [joined!, called!]) expect(smsSegments(sms)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
  });

  it('with the option off, the SMS keeps its accents (and costs UCS-2 segments)', async () => {
    const venueId = await venue({ ...defaultVenueSettings, smsWithoutAccents: false });
    const party = await join(venueId);
    await call(party.id);
    const [called, joined] = await smsTo(party.phone);
    expect(joined).toBe(`${LONG_NAME}: você está na fila. Acompanhe: ${BASE}/waitlist/${party.id} Responda 1 (a caminho) ou 9 (sair).`);
    expect(called).toMatch(new RegExp(`^${LONG_NAME}: sua vez! Vá à recepção em até 10 min\\. `));
    expect(smsSegments(joined!)).toMatchObject({ encoding: 'UCS-2', segments: 3 });
  });

  it('staff turn it off and on through the settings API: a boolean, default on; anything else is a 422 naming it', async () => {
    const host = hostApi(t);
    const patch = (settings: object) => host.patch('/settings', { settings });
    expect((await host.get('/settings')).json().settings.smsWithoutAccents).toBe(true);
    for (const bad of ['yes', 1, null]) {
      const res = await patch({ smsWithoutAccents: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json().field).toBe('settings.smsWithoutAccents');
    }
    const off = await patch({ smsWithoutAccents: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().settings.smsWithoutAccents).toBe(false);
    const party = await join(DEMO_BISTRO_ID);
    expect((await smsTo(party.phone))[0]).toMatch(/^Bistrô Demo: você está na fila\./);
    expect((await patch({ smsWithoutAccents: true })).json().settings.smsWithoutAccents).toBe(true);
    const again = await join(DEMO_BISTRO_ID);
    expect((await smsTo(again.phone))[0]).toMatch(/^Bistro Demo: voce esta na fila\./);
  });
});
