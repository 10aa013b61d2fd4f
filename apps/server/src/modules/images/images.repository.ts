import type { Kysely } from 'kysely';
import type { Database, ImageRow } from '../../db/types.js';

type Executor = Kysely<Database>;

export async function insertImage(db: Executor, row: ImageRow): Promise<void> {
  await db.insertInto('images').values(row).execute();
}

export async function findImageById(db: Executor, id: string): Promise<ImageRow | undefined> {
  const row = await db.selectFrom('images').selectAll().where('id', '=', id).executeTakeFirst();
  // pg answers a Buffer, better-sqlite3 a Buffer too; normalise in case a driver hands a Uint8Array.
  return row && { ...row, bytes: Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes) };
}

/** How many images a venue has stored, and their bytes together (its quota, docs/decisions/026). */
export async function venueImageUsage(db: Executor, venueId: string): Promise<{ count: number; bytes: number }> {
  const row = await db
    .selectFrom('images')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'),
    ])
    .where('venue_id', '=', venueId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), bytes: Number(row.bytes) };
}

/** Deletes one of the venue's images; false when the venue has no image with that id. */
export async function deleteVenueImage(db: Executor, venueId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('images').where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The venue's images, oldest first, without their bytes. */
export function listVenueImages(db: Executor, venueId: string): Promise<{ id: string; size: number; created_at: number }[]> {
  return db
    .selectFrom('images')
    .select(['id', 'size', 'created_at'])
    .where('venue_id', '=', venueId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
