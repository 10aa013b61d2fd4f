import type { FastifyInstance } from 'fastify';
import type { TestApp } from './harness.js';

/** Staff-session requests of the team suites (docs/decisions/023-staff-roles.md). */
export function teamClient(t: TestApp) {
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
    t.app.inject({ method, url, ...(cookie ? { headers: { cookie } } : {}), ...(payload === undefined ? {} : { payload }) });
  return { call };
}

/** The invitation link last sent to `email` through the message queue, as GET /api/dev/outbox shows it. */
export async function inviteTokenFromOutbox(app: FastifyInstance, email: string): Promise<string> {
  await app.notifier.drain();
  const outbox = (await app.inject({ method: 'GET', url: '/api/dev/outbox' })).json() as { to: string; channel: string; body: string }[];
  const mail = outbox.find((m) => m.to === email && m.channel === 'email');
  const token = mail?.body.match(/\/host\/invite\/([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error(`no invitation email to ${email} in the outbox`);
  return token;
}

/** The session cookie a successful accept (or login) set, as a Cookie header. */
export function cookieOf(res: { cookies: { name: string; value: string }[] }): string {
  const cookie = res.cookies.find((c) => c.name === 'vez_staff');
  if (!cookie) throw new Error('no session cookie');
  return `vez_staff=${cookie.value}`;
}
