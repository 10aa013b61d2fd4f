import { randomBytes } from 'node:crypto';
import type { Db } from './connect.js';

/**
 * A secret the server makes for itself once and keeps in the store (`app_keys`), so that every
 * instance uses the same one: the first instance to start writes it, the others read it.
 */
export function loadAppSecret(db: Db, name: string, now: number): Promise<string> {
  return keepAppKey(db, name, randomBytes(32).toString('base64url'), now);
}

/**
 * The kept value of an app key, writing `value` first if none is kept yet (the push keys too,
 * notifications/push.ts): the only SQL of `app_keys` (docs/ARCHITECTURE.md habit 3).
 */
export async function keepAppKey(db: Db, name: string, value: string, now: number): Promise<string> {
  await db.kysely
    .insertInto('app_keys')
    .values({ name, value, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const kept = await db.kysely.selectFrom('app_keys').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return kept.value;
}

/**
 * The same secret, read on first use and then kept: an instance starts even while its store is
 * away (its readiness says so, docs/deploy.md), and a failed read is tried again at the next use.
 */
export function appSecret(db: Db, name: string, now: () => number): () => Promise<string> {
  let kept: Promise<string> | undefined;
  return () => {
    kept ??= loadAppSecret(db, name, now()).catch((error: unknown) => {
      kept = undefined;
      throw error;
    });
    return kept;
  };
}
