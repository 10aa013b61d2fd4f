import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

type Executor = Kysely<Database>;

// STOP (docs/product.md §7): a phone that opted out gets nothing more.

/** The phone of an SMS or WhatsApp address (`whatsapp:+55…`). */
const phoneOf = (address: string) => address.replace(/^whatsapp:/i, '');

export async function isOptedOut(db: Executor, address: string): Promise<boolean> {
  return (await db.selectFrom('sms_opt_outs').select('phone').where('phone', '=', phoneOf(address)).executeTakeFirst()) !== undefined;
}

/** Records a phone's opt-out (once; a repeated STOP changes nothing). */
export async function recordOptOut(db: Executor, phone: string, now: number): Promise<void> {
  await db
    .insertInto('sms_opt_outs')
    .values({ phone, created_at: now })
    .onConflict((oc) => oc.column('phone').doNothing())
    .execute();
}
