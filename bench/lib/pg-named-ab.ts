// Named statements on PostgreSQL against unnamed ones (docs/decisions/070-named-statements-on-postgresql.md),
// in one process: two apps on the same seeded schema (the capacity bench's venues, bench/lib/capacity-seed.ts),
// one whose pool names the statements compiled once (db/pg-named.ts) and one with `namedStatements: false`,
// each running joins, calls and seats through its HTTP routes (app.inject) in turn, rounds alternating.
// Prints this process's CPU, PostgreSQL's (all its processes, from /proc) and the wall time per
// change, with the gain, its noise and the verdict of decision 018 (bench/lib/compare.ts).
// No streams are open: the store's part of a change, which is what the names change.
// Run: PG_NAMED_AB_ROUNDS=8 PG_NAMED_AB_CHANGES=300 [PG_NAMED_AB_BLOCKS=6] node --import tsx bench/lib/pg-named-ab.ts
import { randomBytes } from 'node:crypto';
import { HOST_SESSION_COOKIE } from '@vez/contract';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { type Db, migrateToLatest, openDb } from '../../apps/server/src/db/connect.js';
import { makeMix, rng, weightedPicker } from './capacity-mix.js';
import { compare, comparisonTable } from './compare.js';
import { OPERATOR_EMAIL, OPERATOR_PASSWORD, seedCapacity } from './capacity-seed.js';
import { cpuSecondsOfAll, pidsByName } from './proc-stats.js';

const ROUNDS = Number(process.env.PG_NAMED_AB_ROUNDS ?? 8);
const CHANGES = Number(process.env.PG_NAMED_AB_CHANGES ?? 300);
const URL = process.env.PG_NAMED_AB_URL ?? process.env.CAPACITY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `named_ab_${randomBytes(4).toString('hex')}`;

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: URL,
  DATABASE_SCHEMA: schema,
  DEMO: '',
  LOG_LEVEL: 'warn',
  REDIS_URL: '',
  // One address makes every join here (as in bench/capacity.bench.ts).
  RATE_LIMIT_JOINS_PER_10_MIN: '100000000',
  RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000000',
  JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: '100000000',
  STAFF_SENDS_PER_VENUE_PER_HOUR: '100000000',
});
const mix = makeMix({ venues: 200, streams: 4000, hosts: 0, maxQueue: 150, heads: 3 });
const seeded = await seedCapacity(config.database, mix, 3);

type Way = 'named' | 'unnamed';
const dbs: Record<Way, Db> = { named: openDb(config.database), unnamed: openDb(config.database, { namedStatements: false }) };
await migrateToLatest(dbs.named);
const apps: Record<Way, FastifyInstance> = {
  named: await buildApp({ config, db: dbs.named, retention: false }),
  unnamed: await buildApp({ config, db: dbs.unnamed, retention: false }),
};
const login = await apps.named.inject({
  method: 'POST',
  url: '/api/host/login',
  payload: { email: OPERATOR_EMAIL, password: OPERATOR_PASSWORD },
});
const session = login.cookies.find((c) => c.name === HOST_SESSION_COOKIE);
if (!session) throw new Error(`login answered ${login.statusCode} without a staff cookie`);
const cookie = `${HOST_SESSION_COOKIE}=${session.value}`;

const pick = weightedPicker(
  mix.venues.map((v) => v.streams),
  rng(7),
);
const venues = seeded.map((v) => ({ id: v.id, waiting: [...v.heads.slice(1), ...v.streamed], called: [...v.called] }));
let phone = 0;
let step = 0;

/** One change at a venue drawn by its queue: a join, a call or a seat in turn (as the capacity mix). */
async function change(app: FastifyInstance): Promise<void> {
  const v = venues[pick()]!;
  const kind = step++ % 3;
  if (kind === 0) {
    phone += 1;
    const res = await app.inject({
      method: 'POST',
      url: `/api/waitlists/${v.id}/create`,
      payload: {
        customer: { name: 'Ana Souza', phone: `+55 11 9${String(50_000_000 + phone)}`, email: '' },
        venue: v.id,
        origin: { label: 'Widget' },
        partySize: 1 + (phone % 6),
        benefits: '',
        logs: { actionType: 'Add' },
        data: { origin: 'Waitlist widget' },
        sendSms: true,
        note: '',
      },
    });
    if (res.statusCode !== 201) throw new Error(`join answered ${res.statusCode}: ${res.body}`);
    v.waiting.push((res.json() as { _id: string })._id);
    return;
  }
  const from = kind === 1 ? v.waiting : v.called;
  const target = from.shift();
  if (!target) return;
  const res = await app.inject({
    method: 'POST',
    url: `/api/host/venues/${v.id}/entries/${target}/${kind === 1 ? 'call' : 'seat'}`,
    headers: { cookie, 'content-length': '0' },
  });
  if (res.statusCode !== 200) throw new Error(`${kind === 1 ? 'call' : 'seat'} answered ${res.statusCode}: ${res.body}`);
  if (kind === 1) v.called.push(target);
}

// Warm-up: both ways, until V8 has compiled the path and each pool has prepared what it names.
for (let i = 0; i < 600; i++) await change(i % 2 ? apps.named : apps.unnamed);

const postgres = pidsByName((comm) => comm.startsWith('postgres'));
const figures: Record<Way, { cpu: number[]; pg: number[]; wall: number[] }> = {
  named: { cpu: [], pg: [], wall: [] },
  unnamed: { cpu: [], pg: [], wall: [] },
};
// Each round in BLOCKS turns of CHANGES / BLOCKS changes each way, so what else PostgreSQL does
// meanwhile (its checkpoints, autovacuum, the machine's other work) falls on both ways alike.
const BLOCKS = Number(process.env.PG_NAMED_AB_BLOCKS ?? 1);
for (let round = 0; round < ROUNDS; round++) {
  const sum = { named: { cpu: 0, pg: 0, wall: 0 }, unnamed: { cpu: 0, pg: 0, wall: 0 } };
  for (let block = 0; block < BLOCKS; block++)
    for (const way of ((round + block) % 2 ? ['named', 'unnamed'] : ['unnamed', 'named']) as Way[]) {
      const pg0 = cpuSecondsOfAll(postgres);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < CHANGES / BLOCKS; i++) await change(apps[way]);
      const cpu = process.cpuUsage(cpu0);
      sum[way].cpu += cpu.user + cpu.system;
      sum[way].pg += (cpuSecondsOfAll(postgres) - pg0) * 1e6;
      sum[way].wall += (performance.now() - t0) * 1000;
    }
  for (const way of ['named', 'unnamed'] as Way[]) {
    figures[way].cpu.push(sum[way].cpu / CHANGES);
    figures[way].pg.push(sum[way].pg / CHANGES);
    figures[way].wall.push(sum[way].wall / CHANGES);
  }
}

process.stdout.write(
  `${ROUNDS} rounds of ${CHANGES} changes each way (joins, calls, seats through the routes, no streams), µs a change:\n\n`,
);
const name = 'statements named vs sent unnamed (changes, PostgreSQL)';
process.stdout.write(
  `${comparisonTable([
    compare(name, 'this process CPU µs/change', figures.named.cpu, figures.unnamed.cpu, 'lower'),
    compare(name, 'PostgreSQL CPU µs/change', figures.named.pg, figures.unnamed.pg, 'lower'),
    compare(name, 'wall µs/change', figures.named.wall, figures.unnamed.wall, 'lower'),
  ])}\n`,
);

await apps.named.close();
await apps.unnamed.close();
await sql`drop schema ${sql.id(schema)} cascade`.execute(dbs.named.kysely);
await dbs.named.close();
await dbs.unnamed.close();
