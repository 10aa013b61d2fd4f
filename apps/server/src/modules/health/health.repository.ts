import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/types.js';

/** The cheapest round trip to the store. */
export async function pingStore(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
