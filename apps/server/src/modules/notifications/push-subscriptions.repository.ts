import type { Insertable, Kysely, Selectable } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database, PushSubscriptionTable } from '../../db/types.js';

/**
 * The `push_subscriptions` table (docs/product.md §8; push.ts sends through it): the only place
 * with its SQL (docs/ARCHITECTURE.md habit 3), but for one statement: an entry's erasure deletes
 * its subscriptions with its personal data, in queue/entries.repository.ts (notifications imports
 * the queue, never the reverse).
 */

type Executor = Kysely<Database>;
type PushSubscriptionRow = Selectable<PushSubscriptionTable>;

export function listSubscriptionsOf(db: Executor, entryId: string): Promise<PushSubscriptionRow[]> {
  return db.selectFrom('push_subscriptions').selectAll().where('entry_id', '=', entryId).execute();
}

export async function deleteSubscription(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

/** One row per endpoint and entry: subscribing again replaces it, in one transaction of its own. */
export async function replaceSubscription(db: Executor, row: Insertable<PushSubscriptionTable>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('push_subscriptions').where('entry_id', '=', row.entry_id).where('endpoint', '=', row.endpoint).execute();
    await trx.insertInto('push_subscriptions').values(row).execute();
  });
}

export async function removeSubscriptionsOf(db: Executor, entryId: string): Promise<number> {
  const result = await db.deleteFrom('push_subscriptions').where('entry_id', '=', entryId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const anySubscription = compiledOnce<{ entryId: string }>((db, arg) =>
  db.selectFrom('push_subscriptions').select('id').where('entry_id', '=', arg('entryId')).limit(1).compile(),
);

export async function hasSubscriptions(db: Executor, entryId: string): Promise<boolean> {
  return (await anySubscription(db, { entryId })).rows.length > 0;
}
