import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database } from '../../db/types.js';

type Executor = Kysely<Database>;

// STOP (docs/product.md §7): a phone that opted out gets nothing more.

/** The phone of an SMS or WhatsApp address (`whatsapp:+55…`). */
const phoneOf = (address: string) => address.replace(/^whatsapp:/i, '');

// Compiled once (db/compiled-once.ts): every SMS asks it (docs/decisions/042-cheaper-joins.md).
const optOut = compiledOnce<{ phone: string }>((db, arg) =>
  db.selectFrom('sms_opt_outs').select('phone').where('phone', '=', arg('phone')).compile(),
);

export async function isOptedOut(db: Executor, address: string): Promise<boolean> {
  return (await optOut(db, { phone: phoneOf(address) })).rows.length > 0;
}

/** Records a phone's opt-out (once; a repeated STOP changes nothing). */
export async function recordOptOut(db: Executor, phone: string, now: number): Promise<void> {
  await db
    .insertInto('sms_opt_outs')
    .values({ phone, created_at: now })
    .onConflict((oc) => oc.column('phone').doNothing())
    .execute();
}
