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
