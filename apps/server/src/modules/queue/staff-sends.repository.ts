import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database } from '../../db/types.js';

type Executor = Kysely<Database>;

/** How many staff sends this party or venue had after `since`, and when the oldest of them was. */
export async function countStaffSendsSince(
  db: Executor,
  scope: 'entry_id' | 'venue_id',
  id: string,
  since: number,
): Promise<{ n: number; oldest: number | null }> {
  const row = (await sendsSince(db, { scope, id, since })).rows[0];
  return { n: Number(row?.n ?? 0), oldest: row?.oldest == null ? null : Number(row.oldest) };
}

const sendsSince = compiledOnce<
  { scope: 'entry_id' | 'venue_id'; id: string; since: number },
  { n: number | string; oldest: number | string | null }
>(
  (db, arg, args) =>
    db
      .selectFrom('staff_sends')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | string | null>('created_at').as('oldest')])
      .where(args.scope, '=', arg('id'))
      .where('created_at', '>', arg('since'))
      .compile(),
  (args) => args.scope,
);

const sendInsert = compiledOnce<{ id: string; venue_id: string; entry_id: string; created_at: number }>((db, arg) =>
  db
    .insertInto('staff_sends')
    .values({ id: arg('id'), venue_id: arg('venue_id'), entry_id: arg('entry_id'), created_at: arg('created_at') })
    .compile(),
);

export async function insertStaffSend(db: Executor, send: { id: string; venue_id: string; entry_id: string; created_at: number }) {
  await sendInsert(db, send);
}

export async function deleteStaffSendsBefore(db: Executor, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('staff_sends').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
