// Joins at the demo bistro on two servers of bench/lib/api-server.ts, a kept optimisation and its
// simpler way (api-variants.ts), in alternating rounds of one run: the API bench's own comparison
// (bench/api.bench.ts) with only those two servers on the machine and more rounds, for a verdict
// the whole bench leaves within its noise (docs/decisions/018-optimisations-that-pay.md).
// JOIN_AB_BUSY=1: at busy venues instead (bench/lib/busy-venue.ts: tables listed, a floor with
// history), as the API bench's busy joins: each round at a venue of its own, 200 waiting at the
// start (parties of one to eight), joins of two.
// Run: JOIN_AB=app,wholeIndexes JOIN_AB_ROUNDS=12 node --import tsx bench/lib/join-ab.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createBody } from '../../apps/server/test/fixtures.js';
import { seedUncappedDemo } from '../../apps/server/test/uncapped-demo.js';
import { DEMO_BISTRO_ID } from '../../apps/server/src/seed/demo.js';
import { API_VARIANTS, type ApiVariant, forkApiServer } from './api-variants.js';
import { addBusyVenue, fillBusyVenue } from './busy-venue.js';
import { compare, comparisonTable } from './compare.js';
import { measureLoad } from './load.js';

const [optimised, simpler] = (process.env.JOIN_AB ?? 'app,wholeIndexes').split(',') as [ApiVariant, ApiVariant];
for (const v of [optimised, simpler]) if (!API_VARIANTS.includes(v)) throw new Error(`JOIN_AB: unknown variant ${v}`);
const ROUNDS = Number(process.env.JOIN_AB_ROUNDS ?? 12);
const ROUND_S = 4;
const BUSY = process.env.JOIN_AB_BUSY === '1';
const QUEUE = 200;

let phones = 0;
const joinBody = (venue = DEMO_BISTRO_ID, partySize = 2) =>
  JSON.stringify(createBody({ customer: { phone: `+55 11 9${80_000_000 + (phones++ % 19_999_999)}` }, partySize }, venue));

/** The server, and the venue each round joins at (the demo bistro; with JOIN_AB_BUSY a busy venue of its own, the last one for the warm-up). */
async function start(variant: ApiVariant, dir: string): Promise<{ url: string; child: ChildProcess; venues: string[] }> {
  const file = path.join(dir, `${variant}.db`);
  await seedUncappedDemo({ kind: 'sqlite', file });
  const busy: string[] = [];
  if (BUSY) for (let r = 0; r <= ROUNDS; r++) busy.push(await addBusyVenue({ kind: 'sqlite', file }));
  const server = await forkApiServer(variant, file);
  for (const venue of busy) await fillBusyVenue(server.url, venue, (size) => joinBody(venue, size), QUEUE);
  return { ...server, venues: BUSY ? busy : Array.from({ length: ROUNDS + 1 }, () => DEMO_BISTRO_ID) };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-join-ab-'));
const servers = { [optimised]: await start(optimised, dir), [simpler]: await start(simpler, dir) } as Record<
  ApiVariant,
  { url: string; child: ChildProcess; venues: string[] }
>;
try {
  const joins = (v: ApiVariant, venue: string, warmupS: number, durationS = ROUND_S) =>
    measureLoad(
      `join:${v}`,
      {
        url: `${servers[v].url}/api/waitlists/${venue}/create`,
        connections: 50,
        duration: durationS,
        requests: [
          { method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (r) => ({ ...r, body: joinBody(venue) }) },
        ],
      },
      warmupS,
      servers[v].child.pid,
    );
  // The join path's first seconds (JIT, SQLite's pages) count for nothing.
  for (const v of [optimised, simpler]) await joins(v, servers[v].venues.at(-1)!, 0, 2);
  const figures: Record<string, { rps: number[]; cpu: number[] }> = { [optimised]: { rps: [], cpu: [] }, [simpler]: { rps: [], cpu: [] } };
  for (let r = 0; r < ROUNDS; r++)
    // The order turns each round, so other work on the machine hits both alike.
    for (const v of r % 2 ? [simpler, optimised] : [optimised, simpler]) {
      const f = await joins(v, servers[v].venues[r]!, 0);
      figures[v]!.rps.push(f.requestsPerSec);
      figures[v]!.cpu.push(f.serverCpuUsPerRequest ?? NaN);
      process.stderr.write(
        `[join-ab] round ${r + 1} ${v}: ${Math.round(f.requestsPerSec)} req/s, ${Math.round(f.serverCpuUsPerRequest ?? NaN)} µs/req, p99 ${f.p99Ms} ms\n`,
      );
    }
  const name = `${optimised} vs ${simpler} (${BUSY ? 'joins at busy venues' : 'joins'})`;
  console.log(
    comparisonTable([
      compare(name, 'req/s', figures[optimised]!.rps, figures[simpler]!.rps, 'higher'),
      compare(name, 'server CPU µs/req', figures[optimised]!.cpu, figures[simpler]!.cpu, 'lower'),
    ]),
  );
} finally {
  for (const { child } of Object.values(servers)) child.kill();
  fs.rmSync(dir, { recursive: true, force: true });
}
