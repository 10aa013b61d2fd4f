import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/connect.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID } from '../src/seed/demo.js';

export { DEMO_BISTRO_ID, DEMO_CLUB_ID };

let phoneCounter = 0;
/** A fresh valid Brazilian mobile number per call. */
export function nextPhone(): string {
  phoneCounter += 1;
  return `+55 11 9${String(80000000 + phoneCounter * 7919 + Math.floor(Math.random() * 1000)).slice(-8)}`;
}

export function createBody(overrides: Record<string, unknown> = {}, venue = DEMO_BISTRO_ID) {
  const { customer, ...rest } = overrides as { customer?: Record<string, unknown> };
  return {
    customer: { name: 'Ana Souza', phone: nextPhone(), email: '', ...customer },
    venue,
    origin: { label: 'Widget' },
    partySize: 2,
    benefits: '',
    logs: { actionType: 'Add' },
    data: { origin: 'Waitlist widget' },
    sendSms: true,
    note: '',
    ...rest,
  };
}

/**
 * Makes a store weigh `megabytes` more with images of incompressible bytes (ids `pad0`, `pad1`, …):
 * a copy of it then takes several steps, with the event loop free between them.
 */
export async function padWithImages(db: Db, megabytes: number): Promise<void> {
  for (let i = 0; i < megabytes; i += 1) {
    const bytes = randomBytes(1_000_000);
    await db.kysely
      .insertInto('images')
      .values({
        id: `pad${i}`,
        venue_id: DEMO_BISTRO_ID,
        content_type: 'image/png',
        bytes,
        width: 1,
        height: 1,
        size: bytes.length,
        created_at: 0,
      })
      .execute();
  }
}
