import { DEMO_BISTRO_ID, DEMO_CLUB_ID } from './demo.js';

/** The demo staff of shared/spec/decisions.md §5, one per demo venue. */
export const DEMO_STAFF: Record<string, { email: string; password: string }> = {
  [DEMO_BISTRO_ID]: { email: 'host@bistro.example', password: 'demo1234' },
  [DEMO_CLUB_ID]: { email: 'host@clube.example', password: 'demo1234' },
};

const sessions = new Map<string, string>();

/** Logs the venue's demo staff in (once per server) and returns the session cookie header. */
export async function staffCookie(baseUrl: string, venueId: string): Promise<string> {
  const key = `${baseUrl} ${venueId}`;
  const known = sessions.get(key);
  if (known) return known;
  const staff = DEMO_STAFF[venueId];
  if (!staff) throw new Error(`no demo staff for venue ${venueId}`);
  const response = await fetch(`${baseUrl}/api/host/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(staff),
  });
  if (!response.ok) throw new Error(`staff login answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  sessions.set(key, cookie);
  return cookie;
}

/**
 * Opens, locks or closes a venue's waitlist through the host API (PUT /api/host/venues/{id}/waitlist),
 * as staff would. Unlike a direct database change, this drops the server's short-lived venue cache,
 * so the very next diner request sees the new state.
 */
export async function putWaitlistState(baseUrl: string, venueId: string, state: { active: boolean; locked: boolean }): Promise<void> {
  const response = await fetch(`${baseUrl}/api/host/venues/${venueId}/waitlist`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie: await staffCookie(baseUrl, venueId) },
    body: JSON.stringify(state),
  });
  if (!response.ok) throw new Error(`PUT waitlist answered ${response.status}: ${await response.text()}`);
}

/** Changes a venue's settings through the host API (PATCH /api/host/venues/{id}/settings), as staff would. */
export async function patchVenueSettings(baseUrl: string, venueId: string, patch: unknown): Promise<void> {
  const response = await fetch(`${baseUrl}/api/host/venues/${venueId}/settings`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', cookie: await staffCookie(baseUrl, venueId) },
    body: JSON.stringify(patch),
  });
  if (!response.ok) throw new Error(`PATCH settings answered ${response.status}: ${await response.text()}`);
}
