import type { Kysely } from 'kysely';
import type { Database, PassportTable } from '../../db/types.js';

/** The `passports` table: the only place with its SQL (docs/ARCHITECTURE.md habit 3). */

type Executor = Kysely<Database>;

export async function insertPassport(db: Executor, row: PassportTable): Promise<void> {
  await db.insertInto('passports').values(row).execute();
}

/** Uses a passport once: only one request can turn it into a session. Answers its user id. */
export async function consumePassport(db: Executor, tokenHash: string, now: number): Promise<string | undefined> {
  const result = await db
    .updateTable('passports')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const row = await db.selectFrom('passports').select('user_id').where('token_hash', '=', tokenHash).executeTakeFirst();
  return row?.user_id;
}

/** Removes expired passports (user-sessions.repository.ts `deleteExpiredCredentials`). */
export async function deleteExpiredPassports(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('passports').where('expires_at', '<=', now).execute();
}
