// Profiles the join path (bench/api.bench.ts's server, SQLite): starts bench/lib/api-server.ts under
// `node --cpu-prof`, fills the demo bistro (cold: no tables) and a busy venue (busy-venue.ts) with
// ~200 waiting, drives joins (PROFILE_TARGET=cold|busy|position) with 50 connections for
// PROFILE_S seconds, stops the server and prints the self time per function (bench/lib/cpuprof-sum.ts).
// Run: node --import tsx bench/lib/profile-join.ts. PROFILE_NODE_ARGS adds node flags to the server
// (`--perf-basic-prof`, to attach `perf record -g -p <pid>`: it sees inside SQLite and the kernel);
// PROFILE_KEEP=<file> keeps the profile.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { createBody } from '../../apps/server/test/fixtures.js';
import { seedUncappedDemo } from '../../apps/server/test/uncapped-demo.js';
import { DEMO_BISTRO_ID } from '../../apps/server/src/seed/demo.js';
import { addBusyVenue } from './busy-venue.js';
import { summarise } from './cpuprof-sum.js';
import { ONE_ADDRESS_LIMITS_LIFTED } from './api-variants.js';

const target = process.env.PROFILE_TARGET ?? 'busy';
const seconds = Number(process.env.PROFILE_S ?? 5);
let phones = 0;
const body = (venue: string, size = 2) =>
  JSON.stringify(createBody({ customer: { phone: `+55 11 9${80_000_000 + phones++}` }, partySize: size }, venue));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-prof-'));
const file = path.join(dir, 'app.db');
await seedUncappedDemo({ kind: 'sqlite', file });
const busy = await addBusyVenue({ kind: 'sqlite', file });
const profDir = path.join(dir, 'prof');
const child = fork(path.join(import.meta.dirname, 'api-server.ts'), [], {
  execArgv: [
    '--import',
    'tsx',
    '--cpu-prof',
    `--cpu-prof-dir=${profDir}`,
    ...(process.env.PROFILE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ],
  env: {
    ...process.env,
    DATABASE_URL: `file:${file}`,
    DEMO: '1',
    BENCH_BARE_ROUTE: '1',
    LOG_LEVEL: 'warn',
    // As the API bench runs it (api.bench.ts): no response checks against the contract.
    NODE_ENV: 'production',
    ...ONE_ADDRESS_LIMITS_LIFTED,
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m) => resolve(m as { port: number })));
const url = `http://127.0.0.1:${port}`;
process.on('exit', () => child.kill());
const ids: string[] = [];
// ~200 waiting at the venue driven (the busy one for position reads), 25 joins at a time (a loaded machine fills a queue one join at a time slowly).
for (const venue of target === 'cold' ? [DEMO_BISTRO_ID] : [busy])
  for (let i = 0; i < 200; i += 25) {
    const joined = await Promise.all(
      Array.from({ length: 25 }, async (_, k) => {
        const res = await fetch(`${url}/api/waitlists/${venue}/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(venue, ((i + k) % 8) + 1),
        });
        if (res.status !== 201) throw new Error(`join answered ${res.status} ${await res.text()}`);
        return ((await res.json()) as { _id: string })._id;
      }),
    );
    if (venue === busy) ids.push(...joined);
  }
const venue = target === 'cold' ? DEMO_BISTRO_ID : busy;
let next = 0;
const options =
  target === 'position'
    ? {
        url,
        requests: [
          { method: 'GET' as const, setupRequest: (r: object) => ({ ...r, path: `/api/waitlists/${ids[next++ % ids.length]}/position` }) },
        ],
      }
    : {
        url: `${url}/api/waitlists/${venue}/create`,
        requests: [
          {
            method: 'POST' as const,
            headers: { 'content-type': 'application/json' },
            setupRequest: (r: object) => ({ ...r, body: body(venue) }),
          },
        ],
      };
const result = await autocannon({ ...options, connections: 50, duration: seconds });
console.log(
  `${target}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non2xx ${result.non2xx}`,
);
const exited = new Promise((r) => child.once('exit', r));
child.send({ cmd: 'stop' });
await exited;
const [prof] = fs.readdirSync(profDir);
summarise(path.join(profDir, prof!), Number(process.env.PROFILE_TOP ?? 30), result.requests.total);
// PROFILE_KEEP=<file>: the profile is kept there (for Chrome's DevTools, or a summary of one's own).
if (process.env.PROFILE_KEEP) fs.copyFileSync(path.join(profDir, prof!), process.env.PROFILE_KEEP);
fs.rmSync(dir, { recursive: true, force: true });
