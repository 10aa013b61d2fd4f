// Joins at the demo bistro on two servers of bench/lib/api-server.ts, a kept optimisation and its
// simpler way (api-variants.ts), in alternating rounds of one run: the API bench's own comparison
// (bench/api.bench.ts) with only those two servers on the machine and more rounds, for a verdict
// the whole bench leaves within its noise (docs/decisions/018-optimisations-that-pay.md).
// Run: JOIN_AB=app,wholeIndexes JOIN_AB_ROUNDS=12 node --import tsx bench/lib/join-ab.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createBody } from '../../apps/server/test/fixtures.js';
import { seedUncappedDemo } from '../../apps/server/test/uncapped-demo.js';
import { DEMO_BISTRO_ID } from '../../apps/server/src/seed/demo.js';
import { API_VARIANTS, type ApiVariant, forkApiServer } from './api-variants.js';
import { compare, comparisonTable } from './compare.js';
import { measureLoad } from './load.js';

const [optimised, simpler] = (process.env.JOIN_AB ?? 'app,wholeIndexes').split(',') as [ApiVariant, ApiVariant];
for (const v of [optimised, simpler]) if (!API_VARIANTS.includes(v)) throw new Error(`JOIN_AB: unknown variant ${v}`);
const ROUNDS = Number(process.env.JOIN_AB_ROUNDS ?? 12);
const ROUND_S = 4;

let phones = 0;
const joinBody = () =>
  JSON.stringify(createBody({ customer: { phone: `+55 11 9${80_000_000 + (phones++ % 19_999_999)}` } }, DEMO_BISTRO_ID));

async function start(variant: ApiVariant, dir: string): Promise<{ url: string; child: ChildProcess }> {
  const file = path.join(dir, `${variant}.db`);
  await seedUncappedDemo({ kind: 'sqlite', file });
  return forkApiServer(variant, file);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-join-ab-'));
const servers = { [optimised]: await start(optimised, dir), [simpler]: await start(simpler, dir) } as Record<
  ApiVariant,
  { url: string; child: ChildProcess }
>;
try {
  const joins = (v: ApiVariant, warmupS: number, durationS = ROUND_S) =>
    measureLoad(
      `join:${v}`,
      {
        url: `${servers[v].url}/api/waitlists/${DEMO_BISTRO_ID}/create`,
        connections: 50,
        duration: durationS,
        requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (r) => ({ ...r, body: joinBody() }) }],
      },
      warmupS,
      servers[v].child.pid,
    );
  // The join path's first seconds (JIT, SQLite's pages) count for nothing.
  for (const v of [optimised, simpler]) await joins(v, 0, 2);
  const figures: Record<string, { rps: number[]; cpu: number[] }> = { [optimised]: { rps: [], cpu: [] }, [simpler]: { rps: [], cpu: [] } };
  for (let r = 0; r < ROUNDS; r++)
    // The order turns each round, so other work on the machine hits both alike.
    for (const v of r % 2 ? [simpler, optimised] : [optimised, simpler]) {
      const f = await joins(v, 0);
      figures[v]!.rps.push(f.requestsPerSec);
      figures[v]!.cpu.push(f.serverCpuUsPerRequest ?? NaN);
      process.stderr.write(
        `[join-ab] round ${r + 1} ${v}: ${Math.round(f.requestsPerSec)} req/s, ${Math.round(f.serverCpuUsPerRequest ?? NaN)} µs/req, p99 ${f.p99Ms} ms\n`,
      );
    }
  const name = `${optimised} vs ${simpler} (joins)`;
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
