import type { Kysely } from 'kysely';
import type { Database, OneTimeCodeRow, OneTimeCodeTable } from '../../db/types.js';

type Executor = Kysely<Database>;

export async function insertCode(db: Executor, row: OneTimeCodeTable): Promise<void> {
  await db.insertInto('one_time_codes').values(row).execute();
}

/** Creation times of the codes sent to `target` after `since`, oldest first (the send limit). */
export async function sendTimesForTarget(db: Executor, target: string, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('target', '=', target)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.created_at);
}

export async function sendTimesForClient(db: Executor, clientKey: string, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('client_key', '=', clientKey)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.created_at);
}

/**
 * The newest code sent to a target on a channel since `since` and not used (a resend voids the
 * earlier ones, so there is at most one).
 */
export function findNewestUnusedCode(
  db: Executor,
  channel: 'sms' | 'email',
  target: string,
  since: number,
): Promise<OneTimeCodeRow | undefined> {
  return db
    .selectFrom('one_time_codes')
    .selectAll()
    .where('channel', '=', channel)
    .where('target', '=', target)
    .where('created_at', '>=', since)
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A new code voids the target's earlier ones (docs/product.md §3: only the newest code counts). */
export async function voidLiveCodes(db: Executor, channel: 'sms' | 'email', target: string, now: number): Promise<void> {
  await db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('channel', '=', channel)
    .where('target', '=', target)
    .where('used_at', 'is', null)
    .execute();
}

/**
 * Takes one of a code's tries before comparing: concurrent guesses cannot get more than
 * `maxTries` comparisons out of one code. False when the code is used, expired or out of tries.
 */
export async function reserveTry(db: Executor, id: string, now: number, maxTries: number): Promise<boolean> {
  const result = await db
    .updateTable('one_time_codes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('tries', '<', maxTries)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks the code used; false when another request used it first. */
export async function consumeCode(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes codes made before `cutoff` (user-sessions.repository.ts `deleteExpiredCredentials`). */
export async function deleteCodesBefore(db: Executor, cutoff: number): Promise<void> {
  await db.deleteFrom('one_time_codes').where('created_at', '<', cutoff).execute();
}
