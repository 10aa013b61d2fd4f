import type { FastifyInstance } from 'fastify';

export const DEMO_PASSWORD = 'demo1234';
export const BISTRO_HOST = 'host@bistro.example';
export const CLUB_HOST = 'host@clube.example';

/** Logs a staff member in through the API; returns the Cookie header value. */
export async function loginCookie(app: FastifyInstance, email = BISTRO_HOST, password = DEMO_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/host/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'vez_staff');
  if (!cookie) throw new Error('no session cookie');
  return `vez_staff=${cookie.value}`;
}

/** The demo's host-role accounts (docs/decisions/023-staff-roles.md): they run the queue, not the settings. */
export const BISTRO_DOOR = 'door@bistro.example';
export const CLUB_DOOR = 'door@clube.example';
