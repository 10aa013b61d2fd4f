// The store of bench/capacity.bench.ts, seeded straight through the app's migrations and
// repositories (as apps/server/src/seed/demo.ts seeds the demo): thousands of venues and tens of
// thousands of waiting parties would take minutes as HTTP joins, and only the changes made while
// measuring need to go through the product's HTTP API.
import { randomBytes } from 'node:crypto';
import { defaultVenueSettings } from '@vez/contract';
import { migrateToLatest, openDb } from '../../apps/server/src/db/connect.js';
import type { Config } from '../../apps/server/src/config.js';
import type { NewEntryRow } from '../../apps/server/src/db/types.js';
import { newEntryId, newVenueId } from '../../apps/server/src/lib/ids.js';
import { insertEntryRow } from '../../apps/server/src/modules/queue/index.js';
import { hashPassword } from '../../apps/server/src/modules/staff/password.js';
import { SESSION_TTL_MS, hashToken } from '../../apps/server/src/modules/staff/staff.service.js';
import { insertStaff } from '../../apps/server/src/modules/staff/staff.repository.js';
import { insertSession } from '../../apps/server/src/modules/staff/staff-sessions.repository.js';
import { addStaffVenue } from '../../apps/server/src/modules/staff/staff-venues.repository.js';
import { insertVenue } from '../../apps/server/src/modules/venues/venues.repository.js';
import { demoVenues } from '../../apps/server/src/seed/demo.js';
import type { Mix } from './capacity-mix.js';

export const OPERATOR_EMAIL = 'operator@capacity.example';
export const OPERATOR_PASSWORD = 'capacity-bench-1';

export interface SeededVenue {
  id: string;
  /** Waiting parties whose page is open (a diner stream each), in queue order. */
  streamed: string[];
  /** Waiting parties at the head without a page open: the first the host calls. */
  heads: string[];
  /** Parties already called (the first of the heads), on their way to the door: the first the host seats. */
  called: string[];
  /** Session tokens of this venue's host consoles (the staff cookie's value), one per console. */
  consoleTokens: string[];
}

/**
 * Migrates and fills an empty store: each venue with its heads (the first already called) then its streamed parties, one staff
 * account bound to every venue (the load generator's host: it logs in over HTTP), and for each
 * console a host account of its venue with a session, written as a login writes it.
 */
export async function seedCapacity(database: Config['database'], mix: Mix, heads: number, now = Date.now()): Promise<SeededVenue[]> {
  const db = openDb(database);
  try {
    await migrateToLatest(db);
    const passwordHash = await hashPassword(OPERATOR_PASSWORD);
    const venues: SeededVenue[] = [];
    let phone = 0;
    await db.kysely.transaction().execute(async (trx) => {
      const operatorId = newVenueId();
      await insertStaff(trx, { id: operatorId, email: OPERATOR_EMAIL, password_hash: passwordHash, created_at: now });
      for (const venue of mix.venues) {
        const id = newVenueId();
        await insertVenue(trx, {
          id,
          slug: `capacity-${venue.rank + 1}`,
          name_pt: `Casa ${venue.rank + 1}`,
          name_en: null,
          name_fr: null,
          name_es: null,
          city: 'São Paulo',
          neighborhood: 'Pinheiros',
          has_menu: 0,
          login_journey: 0,
          max_party_size: 8,
          sections: '[]',
          // The default cap of 200 waiting parties would refuse joins at the busiest venues.
          settings: JSON.stringify({ ...defaultVenueSettings, maxWaitingParties: 1000 }),
          theme: JSON.stringify(demoVenues[0]!.theme),
          waitlist_active: 1,
          waitlist_locked: 0,
          next_seq: heads + venue.streams + 1,
          created_at: now,
          updated_at: now,
        });
        // The generator's account owns every venue; each console is a host of its own (docs/decisions/023-staff-roles.md).
        await addStaffVenue(trx, operatorId, id, 'owner');
        const seeded: SeededVenue = { id, streamed: [], heads: [], called: [], consoleTokens: [] };
        const total = heads + venue.streams;
        for (let seq = 1; seq <= total; seq++) {
          phone += 1;
          const size = 1 + ((seq * 7 + venue.rank) % 6);
          // The first head was called a few minutes ago, with no hold window (its expiry would be a change of its own).
          const called = seq === 1 && heads > 1;
          const row: NewEntryRow = {
            id: newEntryId(),
            share_id: newEntryId(),
            venue_id: id,
            seq,
            status: called ? 'called' : 'active',
            ...(called ? { notified_at: now - 3 * 60_000, calls: 1 } : {}),
            priority: 0,
            party_size: size,
            band: size <= 2 ? 0 : size <= 4 ? 1 : 2,
            name: `Party ${venue.rank + 1}-${seq}`,
            phone: `+55119${String(10_000_000 + phone)}`,
            email: null,
            note: null,
            section: null,
            origin_label: 'Widget',
            lang: 'pt',
            // Joined over the last hour and a half, in queue order.
            created_at: now - 90 * 60_000 + Math.floor((seq / total) * 85 * 60_000),
          };
          await insertEntryRow(trx, row);
          (called ? seeded.called : seq <= heads ? seeded.heads : seeded.streamed).push(row.id);
        }
        for (let c = 0; c < venue.hosts; c++) {
          const staffId = newVenueId();
          await insertStaff(trx, {
            id: staffId,
            email: `host${c + 1}@casa-${venue.rank + 1}.example`,
            password_hash: passwordHash,
            created_at: now,
          });
          await addStaffVenue(trx, staffId, id, 'host');
          const token = randomBytes(32).toString('base64url');
          await insertSession(trx, { token_hash: hashToken(token), staff_id: staffId, created_at: now, expires_at: now + SESSION_TTL_MS });
          seeded.consoleTokens.push(token);
        }
        venues.push(seeded);
      }
    });
    return venues;
  } finally {
    await db.close();
  }
}
