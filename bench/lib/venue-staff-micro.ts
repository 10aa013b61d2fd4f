// What a console's request asks first (staff/staff-auth.ts `requireVenueStaff`): the live session of
// its cookie and the staff member's role at the venue. Before: two reads (the session with its staff
// member, then the role). Now: one read joining the role at the venue
// (docs/decisions/065-outbox-claimed-when-something-waits.md). Both on the app's own schema with the
// demo seeded, on SQLite and, when DATABASE_URL names one, on PostgreSQL (each read a round trip
// there), in the same process, in turns: wall time and this process's CPU per request.
// Run: node --import tsx bench/lib/venue-staff-micro.ts (VENUE_STAFF_N: requests per round, 2,000)
import { randomBytes } from 'node:crypto';
import { seededStore } from '../../apps/server/test/harness.js';
import { type TestStore, stores } from '../../apps/server/test/stores.js';
import { DEMO_BISTRO_ID } from '../../apps/server/src/seed/demo.js';
import { assertStaffOfVenue, findSession, findSessionAt, hashToken } from '../../apps/server/src/modules/staff/staff.service.js';

const n = Number(process.env.VENUE_STAFF_N ?? 2_000);
const rounds = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(run: () => Promise<unknown>): Promise<{ wallUs: number; cpuUs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await run();
  const cpu = process.cpuUsage(cpu0);
  return { wallUs: Number(process.hrtime.bigint() - t0) / 1_000 / n, cpuUs: (cpu.user + cpu.system) / n };
}

async function compare(store: TestStore): Promise<void> {
  const now = Date.now();
  const db = await seededStore(store, now);
  try {
    const owner = await db.kysely
      .selectFrom('staff_venues')
      .select('staff_id')
      .where('venue_id', '=', DEMO_BISTRO_ID)
      .executeTakeFirstOrThrow();
    const token = randomBytes(32).toString('base64url');
    await db.kysely
      .insertInto('staff_sessions')
      .values({ token_hash: hashToken(token), staff_id: owner.staff_id, created_at: now, expires_at: now + 3_600_000 })
      .execute();
    const twoReads = async () => {
      const identity = await findSession(db.kysely, token, now);
      if (!identity) throw new Error('no session');
      return assertStaffOfVenue(db.kysely, identity, DEMO_BISTRO_ID);
    };
    const oneRead = async () => {
      const found = await findSessionAt(db.kysely, token, DEMO_BISTRO_ID, now);
      if (!found?.role) throw new Error('no role');
      return found.role;
    };
    for (let i = 0; i < 500; i++) await Promise.all([twoReads(), oneRead()]);
    const before: { wallUs: number; cpuUs: number }[] = [];
    const after: { wallUs: number; cpuUs: number }[] = [];
    for (let r = 0; r < rounds; r++) {
      before.push(await timed(twoReads));
      after.push(await timed(oneRead));
    }
    const show = (xs: { wallUs: number; cpuUs: number }[], key: 'wallUs' | 'cpuUs') => xs.map((x) => x[key].toFixed(1)).join(' ');
    const ratio = (key: 'wallUs' | 'cpuUs') => before.map((b, i) => b[key] / after[i]![key]);
    console.log(
      `${store.name}: two reads ${median(before.map((x) => x.wallUs)).toFixed(1)} µs (CPU ${median(before.map((x) => x.cpuUs)).toFixed(1)}), ` +
        `one read ${median(after.map((x) => x.wallUs)).toFixed(1)} µs (CPU ${median(after.map((x) => x.cpuUs)).toFixed(1)}); ` +
        `gain by round: wall ${ratio('wallUs')
          .map((x) => x.toFixed(2))
          .join(' ')}, CPU ${ratio('cpuUs')
          .map((x) => x.toFixed(2))
          .join(' ')} ` +
        `(rounds, two / one: wall ${show(before, 'wallUs')} / ${show(after, 'wallUs')})`,
    );
  } finally {
    await db.close();
  }
}

for (const store of stores) await compare(store);
