// The restaurants bench/estimate.bench.ts scores quotes against (bench/README.md). The training
// scenarios are those the product's constants were chosen on (docs/decisions/022-wait-estimates.md,
// "Measured"); the held-out ones are realistic variants of the same dinners, written before any
// tuning on them, with seeds of their own: no constant of the product is tuned on them, and their
// results are reported apart (/work/shared/spec/decisions.md §12).
import type { Scenario } from './restaurant-sim.js';

/** Busier at the weekend (0 = Sunday). */
const WEEKDAY = [0.9, 0.7, 0.8, 0.85, 1, 1.3, 1.45];

/** Median turn by party size, minutes: a couple eats faster than a table of eight. */
const dinner = (size: number) => (size <= 2 ? 55 : size <= 4 ? 68 : 82);
/** Party sizes at a casual restaurant's door (weights): mostly twos and fours. */
const sizes: [number, number][] = [
  [1, 4],
  [2, 40],
  [3, 14],
  [4, 24],
  [5, 6],
  [6, 7],
  [7, 2],
  [8, 3],
];
const dinnerTables = [
  { size: 2, count: 9 },
  { size: 4, count: 8 },
  { size: 6, count: 3 },
  { size: 8, count: 2 },
];
const common = {
  partySizes: sizes,
  turnMedian: dinner,
  // Turn times vary a lot: a quick bite, a long dessert (log-normal, about 0.4 in the field).
  turnSigma: 0.4,
  leavers: 0.04,
  patienceMean: 25,
  noShows: 0.06,
  holdMinutes: 15,
  rounds: [2, 8] as [number, number],
  // Remote diners are anywhere nearby when called: a few minutes to a quarter of an hour back.
  walk: [2, 14] as [number, number],
};

const steadyArrivals = (d: number, h: number) => WEEKDAY[d]! * (h < 18.5 ? 10 : 17);
const rushArrivals = (d: number, h: number) => WEEKDAY[d]! * (h >= 19.75 && h < 20.75 ? 34 : h < 19.75 ? 9 : 11);

/** Training: the seeds are BENCH_ESTIMATE_SEED plus 0 to 4 (the runs docs/decisions/022 reports). */
export const TRAINING: Scenario[] = [
  { name: 'steady dinner', seed: 0, mode: 'basic', tables: dinnerTables, open: 18, close: 22.5, arrivals: steadyArrivals, ...common },
  { name: 'rush at 20:00', seed: 1, mode: 'basic', tables: dinnerTables, open: 18, close: 23, arrivals: rushArrivals, ...common },
  {
    name: 'slow afternoon',
    seed: 2,
    mode: 'basic',
    tables: [
      { size: 2, count: 3 },
      { size: 4, count: 3 },
      { size: 6, count: 1 },
      { size: 8, count: 1 },
    ],
    open: 14,
    close: 18,
    arrivals: (d, h) => WEEKDAY[d]! * (h < 15.5 ? 4 : 2.5),
    ...common,
    turnMedian: (size) => dinner(size) - 10,
  },
  {
    name: 'advanced mode (bands)',
    seed: 3,
    mode: 'advanced',
    tables: [
      { size: 2, count: 9 },
      { size: 4, count: 8 },
      { size: 6, count: 3 },
      { size: 10, count: 2 },
    ],
    open: 18,
    close: 22.5,
    arrivals: steadyArrivals,
    ...common,
  },
  {
    name: '15% leave',
    seed: 4,
    mode: 'basic',
    tables: dinnerTables,
    open: 18,
    close: 22.5,
    arrivals: (d, h) => WEEKDAY[d]! * (h < 18.5 ? 11 : 19),
    ...common,
    leavers: 0.15,
  },
];

/** Held out: seeds BENCH_ESTIMATE_SEED plus 101 to 105, never the training ones. */
export const HELD_OUT: Scenario[] = [
  {
    name: 'host seats out of order',
    seed: 101,
    heldOut: true,
    mode: 'basic',
    tables: dinnerTables,
    open: 18,
    close: 22.5,
    arrivals: steadyArrivals,
    ...common,
    // One party in six passed over at a look: a regular, a party not yet all there, a host's whim.
    outOfOrder: 0.15,
  },
  {
    name: 'tables pushed together',
    seed: 102,
    heldOut: true,
    mode: 'basic',
    // One eight-seat table: big parties wait for it or for two small tables pushed together.
    tables: [
      { size: 2, count: 10 },
      { size: 4, count: 8 },
      { size: 6, count: 2 },
      { size: 8, count: 1 },
    ],
    open: 18,
    close: 22.5,
    arrivals: steadyArrivals,
    ...common,
    // A party of five or more that has waited 15 minutes gets two tables pushed together if free.
    pushTogether: { fromSize: 5, afterMinutes: 15 },
  },
  {
    name: 'walk-aways grow with the quote',
    seed: 103,
    heldOut: true,
    mode: 'basic',
    tables: dinnerTables,
    open: 18,
    close: 22.5,
    arrivals: (d, h) => WEEKDAY[d]! * (h < 18.5 ? 11 : 19),
    ...common,
    // 2% give up anyway; a 30-minute quote makes it 14%, an hour 26%, at most half.
    walkAway: { base: 0.02, perMinute: 0.004, max: 0.5 },
  },
  {
    name: 'reservations take tables',
    seed: 104,
    heldOut: true,
    mode: 'basic',
    tables: dinnerTables,
    open: 18,
    close: 22.5,
    arrivals: (d, h) => WEEKDAY[d]! * (h < 18.5 ? 8 : 14),
    ...common,
    // About a fifth of the covers booked, 19:00 to 21:00, parties arriving 10 minutes early to 15 late.
    reservations: {
      perDay: 14,
      sizes: [
        [2, 45],
        [4, 35],
        [6, 15],
        [8, 5],
      ],
      from: 19,
      to: 21,
      early: 10,
      late: 15,
    },
  },
  {
    name: 'late console taps',
    seed: 105,
    heldOut: true,
    mode: 'basic',
    tables: dinnerTables,
    open: 18,
    close: 23,
    arrivals: rushArrivals,
    ...common,
    // Half the taps late: a call 1-5 minutes after the table was seen free, a seat 2-10 minutes after it.
    lateTaps: { share: 0.5, call: [1, 5], seat: [2, 10] },
  },
];

export const SCENARIOS: Scenario[] = [...TRAINING, ...HELD_OUT];
