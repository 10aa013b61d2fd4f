import type { Kysely } from 'kysely';
import type { Database, ProductUserRow, ProductUserTable } from '../../db/types.js';

/** The `product_users` table: the only place with its SQL (docs/ARCHITECTURE.md habit 3, one repository per table). */

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
