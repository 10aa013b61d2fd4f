import type { Kysely, Transaction } from 'kysely';
import type { Database } from './types.js';

/**
 * Opens a transaction at the edge and hands `trx` down to the repositories (docs/ARCHITECTURE.md
 * habit 3: transactions open at the edge and are passed down; only repositories and db/ touch
 * Kysely). A service names the work; what a transaction is stays here. The queue's changes (joins,
 * calls, seats, endings), which SQLite groups into shared commits, use db/write-batch.ts instead.
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}
