import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { newVenueId } from '../../lib/ids.js';
import { hashPassword } from './password.js';
import { insertStaff } from './staff.repository.js';
import { addStaffVenue } from './staff-venues.repository.js';

export const DEMO_STAFF_PASSWORD = 'demo1234';

/**
 * Two staff accounts per demo venue (docs/product.md §5): its owner, who edits settings (the
 * journeys that edit settings sign in as them), and a host who runs the queue only
 * (docs/decisions/023-staff-roles.md).
 */
export const demoStaff = [
  { email: 'host@bistro.example', venueId: '6553f1a2b3c4d5e6f7a8b901', role: 'owner' },
  { email: 'host@clube.example', venueId: '6553f1a2b3c4d5e6f7a8b902', role: 'owner' },
  { email: 'door@bistro.example', venueId: '6553f1a2b3c4d5e6f7a8b901', role: 'host' },
  { email: 'door@clube.example', venueId: '6553f1a2b3c4d5e6f7a8b902', role: 'host' },
] as const;

let demoHash: Promise<string> | undefined;

/** Seeds the demo staff; the seed runs once, into an empty database, after the demo venues. */
export async function seedDemoStaff(db: Kysely<Database>, now: number): Promise<void> {
  // One hash per process: scrypt is deliberately slow and test suites seed many databases.
  demoHash ??= hashPassword(DEMO_STAFF_PASSWORD);
  const passwordHash = await demoHash;
  for (const staff of demoStaff) {
    const id = newVenueId();
    await insertStaff(db, { id, email: staff.email, password_hash: passwordHash, created_at: now });
    await addStaffVenue(db, id, staff.venueId, staff.role);
  }
}
