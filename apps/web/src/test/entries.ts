import { type TestApi, joinByApi } from './api-server';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
let phoneSeq = 0;

/**
 * Joins the demo bistro through the real API with a phone of its own (the demo's waiting parties
 * hold +55119876500NN, and a repeat join answers no id); answers the own id and the share id.
 */
export async function joinBistro(api: TestApi, partySize = 2): Promise<{ id: string; shareId: string }> {
  phoneSeq += 1;
  const { _id } = await joinByApi(api, BISTRO, { phone: `+55119875${String(50000 + phoneSeq)}` }, partySize);
  const position = (await (await fetch(`${api.baseUrl}/api/waitlists/${_id}/position`)).json()) as { waitlist: { shareId: string } };
  return { id: _id, shareId: position.waitlist.shareId };
}

/** An entry's status and cancel reason, as the diner's status route answers them. */
export async function entryStatus(api: TestApi, id: string, venueId = BISTRO): Promise<{ status: string; cancelReason: string | null }> {
  const response = await fetch(`${api.baseUrl}/api/waitlists/${id}/${venueId}/status`);
  if (!response.ok) throw new Error(`status answered ${response.status}`);
  return (await response.json()) as { status: string; cancelReason: string | null };
}

/**
 * The language of the join SMS the demo outbox (GET /api/dev/outbox) holds for `phone`: the
 * language the entry was stored with, as the diner reads it (docs/product.md §13).
 */
export async function joinSmsLanguage(api: TestApi, phone: string): Promise<'pt' | 'en' | undefined> {
  const outbox = (await (await fetch(`${api.baseUrl}/api/dev/outbox`)).json()) as { to: string; body: string }[];
  const join = outbox.filter((m) => m.to === phone).find((m) => /on the waitlist|na fila/.test(m.body));
  if (!join) return undefined;
  return /on the waitlist/.test(join.body) ? 'en' : 'pt';
}
