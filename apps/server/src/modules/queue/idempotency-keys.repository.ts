import type { Kysely } from 'kysely';
import type { Database, IdempotencyKeyTable } from '../../db/types.js';

type Executor = Kysely<Database>;

/** The only SQL of `idempotency_keys` (docs/ARCHITECTURE.md, habit 19): joins' keys and first answers. */

export function findIdempotencyKey(db: Executor, key: string): Promise<IdempotencyKeyTable | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst();
}

/**
 * Claims a key inside the join's transaction; true only for the first claim. The primary key
 * decides: on PostgreSQL a second claim waits for the first transaction and then does nothing.
 */
export async function claimIdempotencyKey(
  trx: Executor,
  row: Pick<IdempotencyKeyTable, 'key' | 'venue_id' | 'body_hash' | 'created_at'>,
): Promise<boolean> {
  const result = await trx
    .insertInto('idempotency_keys')
    .values({ ...row, status: 0, answer: '' })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Keeps the join's answer with the key it claimed, in the same transaction. */
export async function keepIdempotentAnswer(trx: Executor, key: string, status: number, answer: string): Promise<void> {
  await trx.updateTable('idempotency_keys').set({ status, answer }).where('key', '=', key).execute();
}

/** Gives a claim back: the join created nothing, so the same key may be tried afresh. */
export async function releaseIdempotencyKey(trx: Executor, key: string): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('key', '=', key).execute();
}

export async function deleteIdempotencyKeysBefore(db: Executor, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
