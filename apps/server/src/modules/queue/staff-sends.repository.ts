import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

type Executor = Kysely<Database>;

/** How many staff sends this party or venue had after `since`, and when the oldest of them was. */
export async function countStaffSendsSince(
  db: Executor,
  scope: 'entry_id' | 'venue_id',
  id: string,
  since: number,
): Promise<{ n: number; oldest: number | null }> {
  const row = await db
    .selectFrom('staff_sends')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | string | null>('created_at').as('oldest')])
    .where(scope, '=', id)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return { n: Number(row?.n ?? 0), oldest: row?.oldest == null ? null : Number(row.oldest) };
}

export async function insertStaffSend(db: Executor, send: { id: string; venue_id: string; entry_id: string; created_at: number }) {
  await db.insertInto('staff_sends').values(send).execute();
}

export async function deleteStaffSendsBefore(db: Executor, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('staff_sends').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
