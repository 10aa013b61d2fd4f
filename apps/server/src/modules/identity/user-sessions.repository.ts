import type { Kysely } from 'kysely';
import type { Database, ProductUserRow } from '../../db/types.js';
import { deleteCodesBefore } from './otp.repository.js';
import { deleteExpiredPassports } from './passports.repository.js';

/**
 * The `user_sessions` table: the only place with its SQL (docs/ARCHITECTURE.md habit 3).
 * `findUserBySession` joins product_users: it is about the session, so it lives here.
 */

type Executor = Kysely<Database>;

export async function insertSession(
  db: Executor,
  row: { token_hash: string; user_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db.insertInto('user_sessions').values(row).execute();
}

/** The user of a live session, or undefined. */
export function findUserBySession(db: Executor, tokenHash: string, now: number): Promise<ProductUserRow | undefined> {
  return db
    .selectFrom('user_sessions')
    .innerJoin('product_users', 'product_users.id', 'user_sessions.user_id')
    .selectAll('product_users')
    .where('user_sessions.token_hash', '=', tokenHash)
    .where('user_sessions.expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Removes expired sessions, passports and codes (they carry no use after expiry). */
export async function deleteExpiredCredentials(db: Executor, now: number, codeCutoff: number): Promise<void> {
  await db.deleteFrom('user_sessions').where('expires_at', '<=', now).execute();
  await deleteExpiredPassports(db, now);
  await deleteCodesBefore(db, codeCutoff);
}
