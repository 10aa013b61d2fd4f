import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID } from '../src/seed/demo.js';

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

/** Who `hostApi` logs in as at a demo venue: its owner, its host-role account (door), or an email (password demo1234 unless given). */
export type StaffRole = 'owner' | 'host' | { email: string; password?: string };

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Requests to one venue's host routes (`/api/host/venues/:venueId…`) with a staff session of it,
 * logged in once per file by the suite's handle (docs/ARCHITECTURE.md habit 17). `path` follows the
 * venue's root ('' for the venue itself, '/entries', '/settings' …); each answers the raw response.
 */
export function hostApi(
  t: { app: FastifyInstance; staffCookie(email?: string, password?: string): Promise<string> },
  venueId: string = DEMO_BISTRO_ID,
  role: StaffRole = 'owner',
) {
  const isClub = venueId === DEMO_CLUB_ID;
  const who =
    typeof role === 'object' ? role : { email: role === 'owner' ? (isClub ? CLUB_HOST : BISTRO_HOST) : isClub ? CLUB_DOOR : BISTRO_DOOR };
  const cookie = () => t.staffCookie(who.email, who.password ?? DEMO_PASSWORD);
  const request = async (
    method: HttpMethod,
    path: string,
    payload?: object | string,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url: `/api/host/venues/${venueId}${path}`,
      headers: { cookie: await cookie(), ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  return {
    venueId,
    /** The staff session's Cookie header. */
    cookie,
    request,
    get: (path: string, headers?: Record<string, string>) => request('GET', path, undefined, headers),
    post: (path: string, payload?: object) => request('POST', path, payload),
    patch: (path: string, payload: object) => request('PATCH', path, payload),
    put: (path: string, payload: object) => request('PUT', path, payload),
    delete: (path: string) => request('DELETE', path),
  };
}

export type HostApi = ReturnType<typeof hostApi>;
