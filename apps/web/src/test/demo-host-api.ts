import type { TestApi } from './api-server';

/**
 * Venue changes through the host API, as staff would make them: unlike a direct database write,
 * they drop the server's short-lived venue cache, so the next diner request sees them.
 */
const staff: Record<string, string> = {
  '6553f1a2b3c4d5e6f7a8b901': 'host@bistro.example',
  '6553f1a2b3c4d5e6f7a8b902': 'host@clube.example',
};

/** A staff session of the demo venue (its Cookie header), as the console's login makes one. */
export async function cookieFor(api: TestApi, venueId: string): Promise<string> {
  const response = await fetch(`${api.baseUrl}/api/host/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: staff[venueId], password: 'demo1234' }),
  });
  if (!response.ok) throw new Error(`staff login answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function send(api: TestApi, venueId: string, method: 'PUT' | 'PATCH', path: string, body: unknown): Promise<void> {
  const response = await fetch(`${api.baseUrl}/api/host/venues/${venueId}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie: await cookieFor(api, venueId) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
}

export const putWaitlistState = (api: TestApi, venueId: string, state: { active: boolean; locked: boolean }) =>
  send(api, venueId, 'PUT', '/waitlist', state);

export const patchVenueSettings = (api: TestApi, venueId: string, patch: unknown) => send(api, venueId, 'PATCH', '/settings', patch);
