import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { type FakeTwilio, nextAddress, sendCode, startFakeTwilio, twilioEnv } from '../../../test/identity.js';
import { sqliteStore } from '../../../test/stores.js';
import { loadConfig } from '../../config.js';
import type { MessageRow } from '../../db/types.js';
import { ProviderError } from './providers.js';
import { createSmtpProvider } from './smtp-provider.js';
import { createTwilioProvider } from './twilio-provider.js';

const row = (patch: Partial<MessageRow>): MessageRow => ({
  id: 'm1',
  channel: 'sms',
  recipient: '+5511987650001',
  subject: null,
  body: 'Bistrô Demo: você entrou na fila de espera.',
  status: 'sending',
  attempts: 1,
  next_attempt_at: 0,
  provider: null,
  provider_id: null,
  error: null,
  idempotency_key: 'k',
  created_at: 0,
  sent_at: null,
  safe_body: null,
  entry_id: null,
  segments: null,
  content_sid: null,
  content_variables: null,
  fallback_body: null,
  fallback_of: null,
  ...patch,
});

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

async function startSmtp(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('reject')) {
        return callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined;
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('SMTP provider against a local smtp-server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('delivers the message with sender, recipient, subject and text', async () => {
    const provider = createSmtpProvider(loadConfig({ EMAIL_PROVIDER: 'smtp', SMTP_URL: smtp.url, EMAIL_FROM: 'Vez <codes@vez.example>' }));
    const result = await provider.send(
      row({ channel: 'email', recipient: 'ana@example.com', subject: 'Your verification code', body: 'Vez: your code is 123456.' }),
    );
    await provider.close?.();
    expect(result.providerId).toMatch(/@/);
    const mail = smtp.received.at(-1);
    expect(mail).toMatchObject({ from: 'codes@vez.example', to: ['ana@example.com'] });
    expect(mail?.raw).toContain('Subject: Your verification code');
    expect(mail?.raw).toContain('Vez: your code is 123456.');
  });

  it('a rejected recipient is a permanent failure whose text names no address', async () => {
    const provider = createSmtpProvider(loadConfig({ EMAIL_PROVIDER: 'smtp', SMTP_URL: smtp.url }));
    const failure = await provider.send(row({ channel: 'email', recipient: 'reject-me@example.com', body: 'x' })).catch((e: unknown) => e);
    await provider.close?.();
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).permanent).toBe(true);
    expect((failure as ProviderError).message).toMatch(/^smtp 550/);
    expect((failure as ProviderError).message).not.toContain('reject-me@example.com');
  });

  it('a code sent by email goes out over SMTP when EMAIL_PROVIDER=smtp', async () => {
    const t: TestApp = await startTestApp(sqliteStore, { EMAIL_PROVIDER: 'smtp', SMTP_URL: smtp.url });
    try {
      const res = await sendCode(t, { channel: 'email', target: 'bia@example.com', lang: 'en' });
      expect(res.statusCode).toBe(200);
      await t.app.notifier.drain();
      const mail = smtp.received.find((m) => m.to.includes('bia@example.com'));
      expect(mail?.raw).toMatch(/your code is \d{6}/);
      const outbox = (await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).json() as { to: string }[];
      expect(outbox.some((m) => m.to === 'bia@example.com')).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('Twilio SMS provider against a local HTTP server', () => {
  let twilio: FakeTwilio;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
  });
  afterAll(async () => {
    await twilio.close();
  });
  const provider = () => createTwilioProvider(loadConfig(twilioEnv(twilio.url)));

  it('posts To, From, Body and the status callback form-encoded with basic auth to the Messages resource', async () => {
    const result = await provider().send(row({}));
    expect(result.providerId).toMatch(/^SM\d{32}$/);
    const request = twilio.requests.at(-1);
    expect(request?.path).toBe('/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json');
    expect(request?.authorization).toBe(`Basic ${Buffer.from('AC0123456789abcdef0123456789abcdef:secret-token').toString('base64')}`);
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      To: '+5511987650001',
      From: '+15005550006',
      Body: 'Bistrô Demo: você entrou na fila de espera.',
      // Delivery reports come back here (docs/product.md §7).
      StatusCallback: `${loadConfig(twilioEnv(twilio.url)).publicBaseUrl}/api/sms/status`,
    });
  });

  it.each([
    [400, true],
    [401, true],
    [429, false],
    [500, false],
  ])('an answer %i is a failure (permanent: %s) that does not quote the number', async (status, permanent) => {
    twilio.failures.push(status);
    const failure = (await provider()
      .send(row({}))
      .catch((e: unknown) => e)) as ProviderError;
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure.permanent).toBe(permanent);
    expect(failure.message).toBe(`twilio answered ${status} code 21211`);
  });

  it('an unreachable API is a retryable failure', async () => {
    const down = createTwilioProvider(loadConfig(twilioEnv('http://127.0.0.1:9')));
    const failure = (await down.send(row({})).catch((e: unknown) => e)) as ProviderError;
    expect(failure.permanent).toBe(false);
    expect(failure.message).toMatch(/^twilio unreachable/);
  });

  it('a code by SMS goes out through Twilio, and the dev outbox route is gone when no provider is the outbox', async () => {
    const t = await startTestApp(sqliteStore, { ...twilioEnv(twilio.url), EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const res = await sendCode(t, { target: '+5511987650077' }, nextAddress());
      expect(res.statusCode).toBe(200);
      await t.app.notifier.drain();
      expect(twilio.requests.at(-1)?.form.get('Body')).toMatch(/seu codigo é \d{6}/);
      expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('provider configuration', () => {
  it('names each missing setting of the chosen providers', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio', EMAIL_PROVIDER: 'smtp' })).toThrow(
      /SMTP_URL: required when EMAIL_PROVIDER=smtp[\s\S]*SMS_ACCOUNT_SID: required[\s\S]*SMS_AUTH_TOKEN: required[\s\S]*SMS_FROM: required/,
    );
    expect(() => loadConfig({ SMS_PROVIDER: 'carrier-pigeon' })).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ EMAIL_PROVIDER: 'smtp', SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL must be smtp/);
    expect(loadConfig({})).toMatchObject({ SMS_PROVIDER: 'outbox', EMAIL_PROVIDER: 'outbox', MESSAGE_WORKER: true });
  });
});
