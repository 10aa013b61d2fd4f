import Database from 'better-sqlite3';
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

/** Changes an entry straight in the store (what no API does), then forgets the answers the app kept. */
export function updateEntry(api: TestApi, id: string, sql: string, ...values: unknown[]): void {
  const db = new Database(api.dbFile);
  try {
    db.prepare(`UPDATE entries SET ${sql} WHERE id = ?`).run(...values, id);
  } finally {
    db.close();
  }
  api.forgetKeptPositions(); // the write went round the app: no event voided its kept answers
}
