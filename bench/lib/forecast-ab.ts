// The floor's forecast (apps/server/src/modules/estimate/floor.ts) as it is against itself at an
// earlier commit, in the same process, in turns (docs/decisions/018-optimisations-that-pay.md):
// both versions bundled alike from their source (the earlier one read with `git show`), then the
// bench's busy floor (apps/server/test/busy-floor.ts, every table busy) forecast whole at each
// queue length (as a kept book is made, and as a rebase plays its runs again), and joins placed
// behind a queue, the one then the other, round after round.
// First it checks that both give the same forecasts (same seeds) at 0, 5 and 300 waiting: a change
// of speed only. FORECAST_AB_SAME lists the queue lengths checked instead, for a change that is
// meant to forecast some queues differently (docs/decisions/069-a-forecast-horizon.md: 300
// waiting at the busy floor reach past the horizon); FORECAST_AB_QUEUES those timed.
// Run: FORECAST_AB_BEFORE=<commit> node --import tsx bench/lib/forecast-ab.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type * as FloorModule from '../../apps/server/src/modules/estimate/floor.js';
import type * as BusyFloorModule from '../../apps/server/test/busy-floor.js';
import { compare, comparisonTable } from './compare.js';

type Floor = typeof FloorModule;
type BusyFloor = typeof BusyFloorModule;

const before = process.env.FORECAST_AB_BEFORE;
if (!before) throw new Error('FORECAST_AB_BEFORE: the commit to compare the working tree with');
const ROUNDS = Number(process.env.FORECAST_AB_ROUNDS ?? 9);
const QUEUES = (process.env.FORECAST_AB_QUEUES ?? '200,1000,5000').split(',').map(Number);
const SAME = (process.env.FORECAST_AB_SAME ?? '0,5,300').split(',').map(Number);
const root = path.resolve(import.meta.dirname, '../..');
const estimateDir = path.join(root, 'apps/server/src/modules/estimate');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-forecast-ab-'));

/** floor.ts from this source, bundled with what it imports, plus the bench's busy floor. */
async function load(name: string, source: string): Promise<Floor & BusyFloor> {
  const floorFile = path.join(dir, `${name}-floor.mjs`);
  const result = await build({
    stdin: { contents: source, resolveDir: estimateDir, sourcefile: `${name}-floor.ts`, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'warning',
  });
  fs.writeFileSync(floorFile, result.outputFiles[0]!.text);
  const floor = (await import(pathToFileURL(floorFile).href)) as Floor;
  const busy = (await import('../../apps/server/test/busy-floor.js')) as BusyFloor;
  return { ...floor, ...busy };
}

const now = fs.readFileSync(path.join(estimateDir, 'floor.ts'), 'utf8');
const then = execFileSync('git', ['show', `${before}:apps/server/src/modules/estimate/floor.ts`], { cwd: root, encoding: 'utf8' });
const A = await load('now', now);
const B = await load('before', then);

const NOW = Date.UTC(2026, 10, 27, 20);
const queueOf = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i}`, size: (i % 8) + 1, joinedAt: NOW - (n - i) * 30_000 }));

// The same forecasts, draw for draw.
for (const n of SAME) {
  const run = (M: Floor & BusyFloor) => {
    const state = M.busyFloorState(NOW, 0.04);
    const kept = M.forecastKept(state, { waiting: queueOf(n), called: [] }, NOW, 'basic', { runs: 60, seed: 11 });
    const behind = M.forecastBehind(state, kept, [{ size: 2 }, { size: 6 }], NOW + 1_000, 'basic');
    M.rebaseKept(state, kept, NOW + 90_000, 'basic');
    return JSON.stringify([Array.from(kept.kept.times.subarray(0, kept.kept.rows * 60)), Array.from(kept.freeAt), behind]);
  };
  if (run(A) !== run(B)) throw new Error(`the two versions forecast ${n} waiting differently`);
}

const WARM_UP = 3;
/**
 * Each side's times per round: `turn` times one turn of a side (its own setup left out of the
 * timing) and returns it; the order turns each round, so other work on the machine hits both
 * alike; the first WARM_UP rounds count for nothing.
 */
function inTurns(turn: (M: Floor & BusyFloor, round: number) => number): { now: number[]; before: number[] } {
  const times = { now: [] as number[], before: [] as number[] };
  for (let r = 0; r < ROUNDS + WARM_UP; r++)
    for (const [side, M] of r % 2
      ? ([
          ['before', B],
          ['now', A],
        ] as const)
      : ([
          ['now', A],
          ['before', B],
        ] as const)) {
      const took = turn(M, r);
      if (r >= WARM_UP) times[side].push(took);
    }
  return times;
}

const rows = [];
for (const n of QUEUES) {
  const waiting = queueOf(n);
  // Enough forecasts per turn for tens of milliseconds: one forecast of a short queue is too brief to time alone.
  const reps = Math.ceil(5_000 / n);
  const times = inTurns((M, r) => {
    const state = M.busyFloorState(NOW, 0.04);
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < reps; k++) M.forecastKept(state, { waiting, called: [] }, NOW, 'basic', { runs: 60, seed: 5 + r * reps + k });
    return Number(process.hrtime.bigint() - t0) / 1e6 / reps;
  });
  rows.push(
    compare(`${n} waiting, the whole queue's forecast (a kept book's, as a rebase plays it too)`, 'ms', times.now, times.before, 'lower'),
  );
}
// Joins placed behind the queue (`forecastBehind`, as join-forecast.ts places them): parties of two
// behind 40 waiting, 100 on each of 20 kept books' tails a turn: all of them seated within the horizon.
{
  const waiting = queueOf(40);
  const PLACED = 100;
  const TAILS = 20;
  const times = inTurns((M, r) => {
    const state = M.busyFloorState(NOW, 0.04);
    const tails = Array.from({ length: TAILS }, (_, k) =>
      M.forecastKept(state, { waiting, called: [] }, NOW, 'basic', { runs: 60, seed: 5 + r * TAILS + k }),
    );
    const t0 = process.hrtime.bigint();
    for (const tail of tails) for (let k = 0; k < PLACED; k++) M.forecastBehind(state, tail, [{ size: 2 }], NOW + 1_000, 'basic');
    return Number(process.hrtime.bigint() - t0) / 1e3 / PLACED / TAILS;
  });
  rows.push(compare('a join of two placed behind 40 waiting (100 in a row)', 'µs', times.now, times.before, 'lower'));
}
console.log(`The working tree's floor.ts (optimised) against ${before}'s (simpler), ${ROUNDS} rounds:\n`);
console.log(comparisonTable(rows));
fs.rmSync(dir, { recursive: true, force: true });
