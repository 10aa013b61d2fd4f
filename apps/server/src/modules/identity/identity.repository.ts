import type { Kysely } from 'kysely';
import type { Database, PassportTable, ProductUserRow, ProductUserTable, UserEventTable } from '../../db/types.js';

type Executor = Kysely<Database>;

export function findUserById(db: Executor, id: string): Promise<ProductUserRow | undefined> {
  return db.selectFrom('product_users').selectAll().where('id', '=', id).executeTakeFirst();
}

export type Contact = 'phone' | 'email';

/**
 * The account whose phone or email a code has verified, or undefined. An unverified contact is
 * contact data only and never finds an account (docs/product.md §3).
 */
export function findUserByVerified(db: Executor, contact: Contact, value: string): Promise<ProductUserRow | undefined> {
  return db
    .selectFrom('product_users')
    .selectAll()
    .where(contact, '=', value)
    .where(contact === 'phone' ? 'phone_verified_at' : 'email_verified_at', 'is not', null)
    .executeTakeFirst();
}

/** Its verified owner claims a contact: every unverified copy of it is removed from other accounts. */
export async function detachUnverified(db: Executor, contact: Contact, value: string, now: number): Promise<void> {
  const verifiedAt = contact === 'phone' ? 'phone_verified_at' : 'email_verified_at';
  await db
    .updateTable('product_users')
    .set({ [contact]: null, updated_at: now })
    .where(contact, '=', value)
    .where(verifiedAt, 'is', null)
    .execute();
}

export async function insertUser(db: Executor, row: ProductUserTable): Promise<void> {
  await db.insertInto('product_users').values(row).execute();
}

export async function updateUser(db: Executor, id: string, patch: Partial<Omit<ProductUserTable, 'id' | 'created_at'>>): Promise<void> {
  await db.updateTable('product_users').set(patch).where('id', '=', id).execute();
}

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

export async function insertUserEvent(db: Executor, row: UserEventTable): Promise<void> {
  await db.insertInto('user_events').values(row).execute();
}

export function listUserEvents(db: Executor, userId: string) {
  return db.selectFrom('user_events').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

/** Deletes every user event recorded before `cutoff` (retention, docs/security.md); answers how many. */
export async function deleteUserEventsBefore(db: Executor, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('user_events').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Keeps a user's newest `keep` events (by time, then id) and deletes the rest. */
export async function keepNewestUserEvents(db: Executor, userId: string, keep: number): Promise<void> {
  const newest = db
    .selectFrom('user_events')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  // PostgreSQL and SQLite both take a LIMIT in a sub-select; wrapped once more for engines that do not.
  await db
    .deleteFrom('user_events')
    .where('user_id', '=', userId)
    .where('id', 'not in', db.selectFrom(newest.as('newest')).select('newest.id'))
    .execute();
}

/** Removes expired sessions, passports and codes (they carry no use after expiry). */
export async function deleteExpiredCredentials(db: Executor, now: number, codeCutoff: number): Promise<void> {
  await db.deleteFrom('user_sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('passports').where('expires_at', '<=', now).execute();
  await db.deleteFrom('one_time_codes').where('created_at', '<', codeCutoff).execute();
}
