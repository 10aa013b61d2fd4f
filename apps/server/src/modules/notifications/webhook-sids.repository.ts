import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

type Executor = Kysely<Database>;

/**
 * Claims a webhook delivery by its key; true only for the first claim. One statement (the primary
 * key decides), so two instances given the same delivery at once never both act on it.
 */
export async function claimWebhookKey(db: Executor, key: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('webhook_sids')
    .values({ key, created_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Gives a claim back: the work it guarded failed, so the provider's retry may do it. */
export async function releaseWebhookKey(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('webhook_sids').where('key', '=', key).execute();
}

export async function deleteWebhookKeysBefore(db: Executor, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('webhook_sids').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
