import type { HostQueueResponse } from '@vez/contract';
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

/** A host route of the demo venue with its staff session (`path` after `/api/host/venues/:venueId`); throws unless 2xx. */
export async function hostRequest(
  api: TestApi,
  venueId: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${api.baseUrl}/api/host/venues/${venueId}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), cookie: await cookieFor(api, venueId) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

const send = async (api: TestApi, venueId: string, method: 'PUT' | 'PATCH', path: string, body: unknown): Promise<void> => {
  await hostRequest(api, venueId, method, path, body);
};

export const putWaitlistState = (api: TestApi, venueId: string, state: { active: boolean; locked: boolean }) =>
  send(api, venueId, 'PUT', '/waitlist', state);

export const patchVenueSettings = (api: TestApi, venueId: string, patch: unknown) => send(api, venueId, 'PATCH', '/settings', patch);

/** The venue's live queue (waiting and called parties) as its console reads it. */
export const hostQueue = async (api: TestApi, venueId: string): Promise<HostQueueResponse['entries']> =>
  ((await hostRequest(api, venueId, 'GET', '/entries')) as HostQueueResponse).entries;

/**
 * What staff do to a party at the door, through the host API (docs/product.md §8): the app
 * publishes each change, so the pages and the app's kept answers follow as they would in service.
 */
export const callParty = (api: TestApi, venueId: string, id: string) => hostRequest(api, venueId, 'POST', `/entries/${id}/call`);
export const seatParty = (api: TestApi, venueId: string, id: string) => hostRequest(api, venueId, 'POST', `/entries/${id}/seat`);
export const cancelParty = (api: TestApi, venueId: string, id: string, reason: 'Host' | 'NoShow' | 'Removed') =>
  hostRequest(api, venueId, 'POST', `/entries/${id}/cancel`, { reason });
export const messageParty = (api: TestApi, venueId: string, id: string, text: string) =>
  hostRequest(api, venueId, 'POST', `/entries/${id}/messages`, { text });

/** The party leaves from its own page (docs/product.md §3): the diner's cancel route. */
export async function leaveQueue(api: TestApi, venueId: string, id: string): Promise<void> {
  const res = await fetch(`${api.baseUrl}/api/waitlists/${id}/${venueId}/cancel`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ logs: { customer: id, actionType: 'Remove' }, customer: id, cancelReason: 'Customer' }),
  });
  if (res.status !== 200) throw new Error(`leaving answered ${res.status}: ${await res.text()}`);
}
