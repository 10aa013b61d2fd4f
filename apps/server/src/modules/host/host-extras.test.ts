import { smsSegments } from '@vez/contract';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, nextPhone } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { outbox } from '../../../test/identity.js';
import { CLUB_HOST, loginCookie } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { setVenueSettings } from '../../../test/venues.js';

const MIN = 60_000;
const DINER_LEAVE = { logs: { customer: 'x', actionType: 'Remove' }, customer: 'x', cancelReason: 'Customer' };

describe.each(stores)('host undo, figures, poster and uploads on $name', (store) => {
  const t = useTestApp(store, {
    PUBLIC_BASE_URL: 'https://fila.example',
    // A party on WhatsApp gets its join as this template (docs/product.md §10).
    WHATSAPP_TEMPLATES: JSON.stringify({ join: { pt: { sid: `HX${'a'.repeat(32)}`, vars: ['venue', 'link'] } } }),
  });
  let cookie: string;
  beforeAll(async () => {
    cookie = await loginCookie(t.app);
  });

  const host = (method: 'GET' | 'POST', path: string, payload?: object, as = cookie, venue = DEMO_BISTRO_ID) =>
    t.app.inject({ method, url: `/api/host/venues/${venue}${path}`, headers: as ? { cookie: as } : {}, ...(payload ? { payload } : {}) });
  const walkIn = async (whatsappOptIn?: true) =>
    (await host('POST', '/entries', { customer: { name: 'Rui Costa', phone: nextPhone() }, partySize: 2, whatsappOptIn })).json().entry
      ._id as string;
  const queueIds = async () => (await host('GET', '/entries')).json().entries.map((e: { _id: string }) => e._id) as string[];

  describe('undo (restore)', () => {
    it('puts a seated party back in its place, once', async () => {
      const id = await walkIn();
      const before = await queueIds();
      expect((await host('POST', `/entries/${id}/seat`)).statusCode).toBe(200);
      expect(await queueIds()).not.toContain(id);
      const res = await host('POST', `/entries/${id}/restore`);
      expect(res.statusCode).toBe(200);
      expect(res.json().entry).toMatchObject({ _id: id, status: 'active' });
      expect(await queueIds()).toEqual(before);
      const again = await host('POST', `/entries/${id}/restore`);
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('ENTRY_NOT_ACTIVE');
    });

    it('puts a called no-show back as called; the diner sees it again', async () => {
      const id = await walkIn();
      await host('POST', `/entries/${id}/call`);
      await host('POST', `/entries/${id}/cancel`, { reason: 'NoShow' });
      expect((await host('POST', `/entries/${id}/restore`)).json().entry.status).toBe('called');
      const status = await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/status` });
      expect(status.json()).toMatchObject({ status: 'called', cancelReason: null });
    });

    it('refuses after the window, a diner who left, an open party, and other venues', async () => {
      const late = await walkIn();
      await host('POST', `/entries/${late}/seat`);
      t.clock.now += MIN + 1000;
      const late409 = await host('POST', `/entries/${late}/restore`);
      expect(late409.json()).toMatchObject({ code: 'ENTRY_NOT_ACTIVE', message: expect.stringContaining('Too late') });
      expect(await queueIds()).not.toContain(late);

      const left = await walkIn();
      const leave = await t.app.inject({ method: 'PUT', url: `/api/waitlists/${left}/${DEMO_BISTRO_ID}/cancel`, payload: DINER_LEAVE });
      expect(leave.statusCode).toBe(200);
      expect((await host('POST', `/entries/${left}/restore`)).statusCode).toBe(409);

      const open = await walkIn();
      expect((await host('POST', `/entries/${open}/restore`)).statusCode).toBe(409);
      await host('POST', `/entries/${open}/seat`);
      expect((await host('POST', `/entries/${open}/restore`, undefined, '')).statusCode).toBe(401);
      const club = await loginCookie(t.app, CLUB_HOST);
      expect((await host('POST', `/entries/${open}/restore`, undefined, club)).statusCode).toBe(403);
      expect((await host('POST', `/entries/${open}/restore`, undefined, club, DEMO_CLUB_ID)).statusCode).toBe(404);
      expect((await host('POST', '/entries/not-an-id/restore')).statusCode).toBe(400);
    });
  });

  describe("today's figures", () => {
    it('counts a day in local time with median, p90 and waits by hour', async () => {
      // The clock jumps years ahead: a fresh session at each jump keeps the cookie valid.
      const at = async (iso: string) => {
        t.clock.now = Date.parse(iso);
        cookie = await loginCookie(t.app);
      };
      await at('2030-03-10T15:00:00Z'); // 12:00 in São Paulo (tz -180)
      const [a, b, c, d, e] = [await walkIn(), await walkIn(), await walkIn(), await walkIn(), await walkIn()];
      await at('2030-03-10T15:10:00Z');
      await host('POST', `/entries/${a}/seat`);
      await at('2030-03-10T15:20:00Z');
      await host('POST', `/entries/${b}/seat`);
      await host('POST', `/entries/${c}/cancel`, { reason: 'NoShow' });
      await host('POST', `/entries/${d}/cancel`, { reason: 'Removed' });
      await t.app.inject({ method: 'PUT', url: `/api/waitlists/${e}/${DEMO_BISTRO_ID}/cancel`, payload: DINER_LEAVE });
      await at('2030-03-10T17:00:00Z');
      const f = await walkIn();
      await at('2030-03-10T17:40:00Z');
      await host('POST', `/entries/${f}/seat`);
      await at('2030-03-11T02:59:00Z'); // still the 10th in São Paulo
      // The quotes given at join (the estimator has its own tests): inside, on the edge, outside.
      const quote = (id: string, quoted_minutes: number, quoted_low: number, quoted_high: number) =>
        t.db.kysely.updateTable('entries').set({ quoted_minutes, quoted_low, quoted_high }).where('id', '=', id).execute();
      await quote(a, 8, 5, 12); // waited 10
      await quote(b, 15, 10, 20); // waited 20
      await quote(f, 30, 25, 35); // waited 40
      await quote(c, 5, 1, 9); // not seated: not counted

      const res = await host('GET', '/stats?tz=-180');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        venueId: DEMO_BISTRO_ID,
        date: '2030-03-10',
        tz: -180,
        joined: 6,
        seated: 3,
        left: 1,
        noShows: 1,
        removed: 1,
        medianWaitMinutes: 20,
        p90WaitMinutes: 40,
        // docs/product.md §4: quoted against actual, for the day and by hour.
        quotes: { quoted: 3, medianErrorMinutes: 5, medianAbsErrorMinutes: 5, withinRange: 0.667 },
        // The next test counts them: here they depend on when the queue ran.
        messages: expect.any(Array),
        byHour: [
          {
            hour: 12,
            seated: 2,
            medianWaitMinutes: 10,
            quotes: { quoted: 2, medianErrorMinutes: 2, medianAbsErrorMinutes: 2, withinRange: 1 },
          },
          {
            hour: 14,
            seated: 1,
            medianWaitMinutes: 40,
            quotes: { quoted: 1, medianErrorMinutes: 10, medianAbsErrorMinutes: 10, withinRange: 0 },
          },
        ],
      });
      const nextDay = (await host('GET', '/stats?date=2030-03-11&tz=-180')).json();
      expect(nextDay).toMatchObject({ joined: 0, seated: 0, medianWaitMinutes: null, p90WaitMinutes: null, quotes: null, byHour: [] });
      // In UTC the 17:40 seat is still the 10th too, but hours shift by three.
      expect((await host('GET', '/stats?date=2030-03-10&tz=0')).json().byHour.map((h: { hour: number }) => h.hour)).toEqual([15, 17]);
    });

    it('counts the messages sent that day by channel, with the segments the SMS cost (docs/product.md §8)', async () => {
      const at = async (iso: string) => {
        t.clock.now = Date.parse(iso);
        cookie = await loginCookie(t.app);
      };
      const sent = async () => t.app.notifier.drain();
      await at('2030-04-01T15:00:00Z');
      // Without accents (the default): the join and the call cost one segment each.
      const plain = await walkIn();
      await sent();
      await host('POST', `/entries/${plain}/call`);
      await sent();
      // With accents: the join goes in UCS-2, two segments.
      await setVenueSettings(t, { smsWithoutAccents: false });
      await walkIn();
      await sent();
      // By WhatsApp (the party said yes): a message, no segments.
      await setVenueSettings(t, { channel: 'whatsapp' });
      await walkIn(true);
      await sent();
      await setVenueSettings(t, { channel: 'sms', smsWithoutAccents: true });
      const bodies = (await outbox(t)).filter((m) => Date.parse(m.createdAt) >= Date.parse('2030-04-01T15:00:00Z'));
      expect(bodies.map((m) => [m.to.startsWith('whatsapp:'), smsSegments(m.body).segments])).toEqual([
        [true, 2],
        [false, 2],
        [false, 1],
        [false, 1],
      ]);
      const day = await host('GET', '/stats?date=2030-04-01&tz=-180');
      expect(day.json().messages).toEqual([
        { channel: 'sms', sent: 3, segments: 4 },
        { channel: 'whatsapp', sent: 1, segments: null },
        { channel: 'push', sent: 0, segments: null },
        { channel: 'email', sent: 0, segments: null },
      ]);
      // Another venue's messages are not this venue's.
      const club = await loginCookie(t.app, CLUB_HOST);
      expect((await host('GET', '/stats?date=2030-04-01&tz=-180', undefined, club, DEMO_CLUB_ID)).json().messages[0]).toEqual({
        channel: 'sms',
        sent: 0,
        segments: 0,
      });
      // A day older than the messages are kept (RETENTION_HOURS, 24 by default): no figures rather than wrong ones.
      await at('2030-04-03T15:00:00Z');
      expect((await host('GET', '/stats?date=2030-04-01&tz=-180')).json()).toMatchObject({ joined: 3, messages: null });
    });

    it.each(['date=10/03/2030', 'tz=2000', 'tz=1.5', 'tz=abc'])('refuses %s with 422', async (query) => {
      const res = await host('GET', `/stats?${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    });

    it('is for staff of the venue only', async () => {
      expect((await host('GET', '/stats', undefined, '')).statusCode).toBe(401);
      expect((await host('GET', '/stats', undefined, await loginCookie(t.app, CLUB_HOST))).statusCode).toBe(403);
    });
  });

  describe('poster QR code', () => {
    it("encodes the venue's join page on the public origin", async () => {
      const res = await host('GET', '/poster.svg');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      const expected = await QRCode.toString(`https://fila.example/remote-waitlist/${DEMO_BISTRO_ID}`, {
        type: 'svg',
        errorCorrectionLevel: 'M',
        margin: 2,
      });
      expect(res.body).toBe(expected);
      expect((await host('GET', '/poster.svg', undefined, '')).statusCode).toBe(401);
    });
  });

  describe('image upload with the staff guard', () => {
    const boundary = 'vezHostBoundary42';
    const upload = async (as: string, venue = DEMO_BISTRO_ID, extra: Record<string, string> = {}) => {
      const file = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#0f766e' } })
        .png()
        .toBuffer();
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`;
      return t.app.inject({
        method: 'POST',
        url: `/api/host/venues/${venue}/images`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(as ? { cookie: as } : {}), ...extra },
        payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
      });
    };

    it('stores an image from venue staff and serves it as webp', async () => {
      const res = await upload(cookie);
      expect(res.statusCode).toBe(201);
      const served = await t.app.inject({ method: 'GET', url: `/images${res.json().path}?quality=70&format=webp` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
    });

    it('refuses anonymous, other-venue and cross-site uploads', async () => {
      expect((await upload('')).statusCode).toBe(401);
      expect((await upload(await loginCookie(t.app, CLUB_HOST))).statusCode).toBe(403);
      expect((await upload(cookie, DEMO_BISTRO_ID, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(
        403,
      );
    });
  });
});
