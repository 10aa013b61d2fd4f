import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import twilio from 'twilio';
import { DEMO_CLUB_ID } from './fixtures.js';
import type { TestApp } from './harness.js';

let addressCounter = 0;
/** A fresh client address per call, so the per-address send limit stays out of unrelated tests. */
export const nextAddress = () => `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${++addressCounter & 255}`;

export function sendCode(
  t: TestApp,
  body: { channel?: 'sms' | 'email'; target: string; venueId?: string; lang?: 'pt' | 'en' },
  remoteAddress = nextAddress(),
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/otp/send',
    remoteAddress,
    payload: { productName: 'waitlist', channel: 'sms', venueId: DEMO_CLUB_ID, type: 'validate', ...body },
  });
}

export interface OutboxItem {
  to: string;
  channel: string;
  body: string;
  createdAt: string;
}

export async function outbox(t: TestApp): Promise<OutboxItem[]> {
  await t.app.notifier.drain();
  const res = await t.app.inject({ method: 'GET', url: '/api/dev/outbox' });
  return res.json() as OutboxItem[];
}

/** The newest code delivered to `to` through the outbox. */
export async function lastCode(t: TestApp, to: string): Promise<string> {
  const item = (await outbox(t)).find((m) => m.to === to);
  const code = item && /\b(\d{6})\b/.exec(item.body)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

/** `vez_user=<token>` from a Set-Cookie answer, for the next request's Cookie header. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('vez_user='));
  if (!header) throw new Error('no session cookie');
  return header.split(';')[0] as string;
}

export function createUser(t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/product-user/otp',
    headers,
    payload: { firstName: 'Ana', lastName: 'Souza', email: '', productName: 'waitlist', channel: 'sms', ...body },
  });
}

/** Sends a code to `phone`, creates the user with it; answers the session cookie. */
export async function signUp(t: TestApp, phone: string, extra: Record<string, unknown> = {}): Promise<string> {
  const sent = await sendCode(t, { target: phone });
  if (sent.statusCode !== 200) throw new Error(`code send failed: ${sent.body}`);
  const res = await createUser(t, { phone, otp: await lastCode(t, phone), ...extra });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`sign-up failed: ${res.body}`);
  return sessionCookie(res);
}

/** Sends a code to `email`, creates (or logs in) the user with it and `phone` typed; answers the session cookie. */
export async function signUpByEmail(t: TestApp, email: string, phone: string, extra: Record<string, unknown> = {}): Promise<string> {
  const sent = await sendCode(t, { channel: 'email', target: email });
  if (sent.statusCode !== 200) throw new Error(`code send failed: ${sent.body}`);
  const res = await createUser(t, { phone, email, channel: 'email', otp: await lastCode(t, email), ...extra });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`sign-up failed: ${res.body}`);
  return sessionCookie(res);
}

/** GET /api/product-user with a session cookie. */
export function currentUser(t: TestApp, cookie?: string) {
  return t.app.inject({ method: 'GET', url: '/api/product-user', headers: cookie ? { cookie } : {} });
}

export interface FakeTwilio {
  url: string;
  requests: { path: string; authorization: string | undefined; form: URLSearchParams }[];
  /** Status codes to answer next, in order (push to them); 201 once they run out. */
  failures: number[];
  /**
   * WhatsApp as the platform rules it (docs/product.md §10): the Content templates that exist, the
   * numbers without WhatsApp (refused, 63003), and the numbers whose customer-service window is open
   * (free text elsewhere is accepted, then reported failed with 63016, as Twilio does).
   */
  whatsapp: { templates: Set<string>; withoutWhatsApp: Set<string>; windowOpen: Set<string> };
  /** The status callbacks Twilio would post, signed with X-Twilio-Signature; tests deliver them. */
  callbacks: { url: string; params: Record<string, string>; signature: string }[];
  close(): Promise<void>;
}

/** Twilio's error answer: its code and a message that, like Twilio's, may quote the number. */
const refusal = (code: number, message: string) => ({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}` });

/** A local HTTP server speaking the shape and the rules of Twilio's Messages API. */
export async function startFakeTwilio(authToken = 'secret-token'): Promise<FakeTwilio> {
  const requests: FakeTwilio['requests'] = [];
  const failures: number[] = [];
  const whatsapp: FakeTwilio['whatsapp'] = { templates: new Set(), withoutWhatsApp: new Set(), windowOpen: new Set() };
  const callbacks: FakeTwilio['callbacks'] = [];
  const callback = (url: string | null, params: Record<string, string>) => {
    if (url) callbacks.push({ url, params, signature: twilio.getExpectedTwilioSignature(authToken, url, params) });
  };
  /** What Twilio answers a valid-looking request: an error [status, body], or undefined to accept it. */
  const ruleOf = (form: URLSearchParams): [number, object] | undefined => {
    const to = form.get('To') ?? '';
    const sid = form.get('ContentSid');
    if (form.has('ContentVariables') && !sid) return [400, refusal(21654, 'ContentVariables specified without ContentSid')];
    if (sid !== null && !whatsapp.templates.has(sid)) return [400, refusal(21655, 'The ContentSid is invalid')];
    if (sid === null && !form.get('Body')) return [400, refusal(21602, 'Message body is required')];
    if (to.startsWith('whatsapp:') && whatsapp.withoutWhatsApp.has(to.slice('whatsapp:'.length))) {
      return [400, refusal(63003, `Channel could not find To address ${to}`)];
    }
    return undefined;
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, form });
      const forced = failures.shift();
      const ruled = forced === undefined ? ruleOf(form) : undefined;
      const status = forced ?? ruled?.[0] ?? 201;
      res.writeHead(status, { 'content-type': 'application/json' });
      const messageSid = `SM${String(requests.length).padStart(32, '0')}`;
      // Like Twilio, an error message quotes the number: the server must not log or store it.
      const answer =
        status === 201
          ? { sid: messageSid, status: 'queued' }
          : (ruled?.[1] ?? { code: 21211, message: `The 'To' number ${form.get('To')} is not a valid phone number.`, status });
      res.end(JSON.stringify(answer));
      const to = form.get('To') ?? '';
      // Free text to WhatsApp outside the window is accepted, then fails (Twilio's error 63016).
      if (status === 201 && to.startsWith('whatsapp:') && !form.get('ContentSid') && !whatsapp.windowOpen.has(to.slice(9))) {
        callback(form.get('StatusCallback'), {
          AccountSid: req.url?.split('/')[3] ?? '',
          MessageSid: messageSid,
          MessageStatus: 'failed',
          ErrorCode: '63016',
          To: to,
          From: form.get('From') ?? '',
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failures,
    whatsapp,
    callbacks,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const twilioEnv = (url: string) => ({
  SMS_PROVIDER: 'twilio',
  SMS_API_URL: url,
  SMS_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  SMS_AUTH_TOKEN: 'secret-token',
  SMS_FROM: '+15005550006',
});
