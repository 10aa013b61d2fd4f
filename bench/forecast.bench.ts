// The floor's whole-queue forecast (apps/server/src/modules/estimate/floor.ts `forecastFloor`, 60
// Monte Carlo runs), alone: the time per forecast of a dinner floor of 22 tables, all busy, at 50,
// 200, 500 and 1,000 waiting parties, and its cost per party. docs/decisions/037-calibrated-ranges.md:
// the whole-queue forecast grows linearly with the queue.
// Targets: <= 5 ms a forecast at 200 waiting; the time per party at 1,000 within 1.5x of that at
// 200 (linear), and the loops' steps per party at 1,000 within 1.5x of those at 50 (a count, not
// a time: it does not move with the machine's load).
import { type FloorState, forecastFloor, freshFloor, onCall, onSeat } from '../apps/server/src/modules/estimate/floor.js';
import { seededRandom } from '../apps/server/src/lib/seeded-random.js';
import { type BenchReport, round } from './lib/report.js';

const MIN = 60_000;
const QUEUES = [50, 200, 500, 1_000];
/** Rounds timed, each forecasting every queue length once (the median is reported); BENCH_FORECAST_REPEATS=5 for a quick look. */
const REPEATS = Number(process.env.BENCH_FORECAST_REPEATS ?? 40);
const NOW = Date.UTC(2026, 0, 9, 20);
const TABLES = [
  { seats: 2, count: 9 },
  { seats: 4, count: 8 },
  { seats: 6, count: 3 },
  { seats: 8, count: 2 },
];
/** Party sizes as a dinner's (the estimate bench's mix). */
const SIZES = [1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 5, 6, 6, 7, 8];

/** A floor that has learned a dinner's turns, walks and looks, every table busy since the last hour. */
function dinnerFloor(): FloorState {
  const r = seededRandom(7);
  const state = freshFloor(TABLES);
  let at = NOW - 14 * 24 * 60 * MIN;
  // Learned: parties called to busy tables after a turn, seated a few minutes later.
  for (let i = 0; i < 200; i++) {
    const size = SIZES[Math.floor(r() * SIZES.length)]!;
    const id = `p${i}`;
    onSeat(state, { id: `door${i}`, size, joinedAt: at - 5 * MIN }, at, 'basic');
    at += (50 + 40 * r()) * MIN;
    onCall(state, { id, size, joinedAt: at - 20 * MIN }, at, 'basic');
    onSeat(state, { id, size, joinedAt: at - 20 * MIN, calledAt: at }, at + (2 + 10 * r()) * MIN, 'basic');
  }
  state.looks = Array.from({ length: 20 }, () => 8 * r());
  // A dinner's turns, about an hour by band (as the API bench's busy floor, apps/server/test/busy-floor.ts):
  // the calls above, one an hour over 22 tables, teach turns of four to five hours, and a queue of
  // 200 would then wait past the forecast's horizon (floor.ts HORIZON_MS) and not be played.
  state.turns = [
    { band: 0, mean: 55, n: 40 },
    { band: 1, mean: 68, n: 30 },
    { band: 2, mean: 82, n: 12 },
    { band: 3, mean: 95, n: 8 },
  ];
  state.leaveShare = 0.05;
  state.at = NOW;
  state.tables.forEach((t, i) => Object.assign(t, { busySince: NOW - ((i * 7) % 60) * MIN, party: t.seats, heldFor: null }));
  return state;
}

function queueOf(n: number) {
  const r = seededRandom(n);
  return {
    waiting: Array.from({ length: n }, (_, j) => ({ size: SIZES[Math.floor(r() * SIZES.length)]!, joinedAt: NOW - (n - j) * 0.2 * MIN })),
    called: [],
  };
}

export default async function forecastBench(): Promise<BenchReport> {
  const state = dinnerFloor();
  const cases = QUEUES.map((n) => {
    const queue = queueOf(n);
    // The loops' steps: the same for any seed's draws give or take, counted once.
    const cost = { steps: 0 };
    // The parties the floor quotes: seated within the horizon (floor.ts HORIZON_MS) in nine runs of ten.
    const quoted = forecastFloor(state, queue, NOW, 'basic', { seed: 1, cost }).seats.filter((seat) => seat !== null).length;
    for (let k = 0; k < 10; k++) forecastFloor(state, queue, NOW, 'basic', { seed: k }); // warm-up: the JIT
    return { n, queue, steps: cost.steps, quoted, times: [] as number[], cpu: [] as number[] };
  });
  // Rounds of every length in turn: the machine's load, shared with other work, falls on all of them alike.
  for (let k = 0; k < REPEATS; k++) {
    for (const c of cases) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      forecastFloor(state, c.queue, NOW, 'basic', { seed: 100 + k });
      const used = process.cpuUsage(cpu);
      c.times.push(performance.now() - started);
      c.cpu.push((used.user + used.system) / 1000);
    }
  }
  const rows = cases.map(({ n, steps, quoted, times, cpu }) => {
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    // The process's CPU time (user and system) is the forecast's own cost: on a machine shared
    // with other work, the wall time adds the waits for a core. The median of the rounds.
    const ms = cpu[Math.floor(cpu.length / 2)]!;
    return { waiting: n, quoted, ms, wallMs: times[Math.floor(times.length / 2)]!, usPerParty: (ms * 1000) / n, stepsPerParty: steps / n };
  });
  for (const row of rows) {
    console.log(
      `${String(row.waiting).padStart(5)} waiting: ${round(row.ms, 2)} ms CPU a forecast (wall ${round(row.wallMs, 2)}), ${round(row.usPerParty, 1)} µs and ${round(row.stepsPerParty)} steps a party`,
    );
  }
  const at = (n: number) => rows.find((row) => row.waiting === n)!;
  const timeRatio = at(1_000).usPerParty / at(200).usPerParty;
  const stepRatio = at(1_000).stepsPerParty / at(50).stepsPerParty;
  return {
    title: `The floor's whole-queue forecast (forecastFloor, 60 runs, 22 tables all busy): time per forecast at ${QUEUES.join(', ')} waiting`,
    environment: {
      repeats: REPEATS,
      tables: 22,
      runs: 60,
      statistic: 'median CPU time (user + system) of the interleaved rounds; wall time alongside',
    },
    figures: Object.fromEntries(rows.map((row) => [String(row.waiting), row])),
    targets: [
      { name: 'a forecast at 200 waiting (ms)', value: round(at(200).ms, 2), target: '<= 5', met: at(200).ms <= 5 },
      {
        name: 'time per party at 1,000 over at 200 (linear)',
        value: round(timeRatio, 2),
        target: '<= 1.5',
        met: timeRatio <= 1.5,
      },
      {
        name: 'loop steps per party at 1,000 over at 50 (linear)',
        value: round(stepRatio, 2),
        target: '<= 1.5',
        met: stepRatio <= 1.5,
      },
    ],
    markdown: [
      '| Waiting | quoted by the floor | ms CPU a forecast | ms wall | µs CPU a party | loop steps a party |',
      '|---:|---:|---:|---:|---:|---:|',
      ...rows.map(
        (row) =>
          `| ${row.waiting} | ${row.quoted} | ${round(row.ms, 2)} | ${round(row.wallMs, 2)} | ${round(row.usPerParty, 1)} | ${round(row.stepsPerParty)} |`,
      ),
      '',
      `Per party, 1,000 waiting against 200: ${round(timeRatio, 2)}× the time; against 50: ${round(stepRatio, 2)}× the loops' steps. Quoted by the floor: the parties its runs seat within twelve hours in nine runs of ten (floor.ts HORIZON_MS, docs/decisions/069-a-forecast-horizon.md); a run stops there, so past it a party costs one draw, and the longer queues cost less than linearly. The median of ${REPEATS} interleaved rounds per length, in CPU time of the process (user + system): on a machine shared with other work the wall time adds the waits for a core. Compare the ratios, not the absolute times.`,
    ].join('\n'),
  };
}
