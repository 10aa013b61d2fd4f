// Two ways of the same work timed in the same process, in turns (docs/decisions/018-optimisations-that-pay.md):
// each round runs the one before and the one now N times after a warm-up; the medians are printed.

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** µs per run of `run`, after 2,000 unmeasured runs. */
function time(run: () => unknown, n: number): number {
  for (let i = 0; i < 2_000; i++) run();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) run();
  return Number(process.hrtime.bigint() - t0) / n / 1_000;
}

/** Prints `name: <before> µs before, <now> µs now (rounds ...)`; answers the two medians. */
export function compareInTurns(
  name: string,
  before: () => unknown,
  now: () => unknown,
  options: { rounds?: number; n?: number } = {},
): { before: number; now: number } {
  const { rounds = 4, n = 20_000 } = options;
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    a.push(time(before, n));
    b.push(time(now, n));
  }
  console.log(
    `${name}: ${median(a).toFixed(1)} µs before, ${median(b).toFixed(1)} µs now (rounds: ${a.map((x) => x.toFixed(1)).join(' ')} / ${b.map((x) => x.toFixed(1)).join(' ')})`,
  );
  return { before: median(a), now: median(b) };
}
