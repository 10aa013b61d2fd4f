// Quotes measured against a simulated restaurant (docs/decisions/022-wait-estimates.md). Each
// scenario runs several weeks of services through the product's own queue services (join, call,
// seat, no-show, leave) on a real SQLite file, with the simulation's clock. For every party seated
// in the last weeks (the first ones build the history), the quote it got at join is compared with
// its actual wait, side by side with (a) a rule of thumb, (b) the exponential average the product
// used before, and (d) an oracle that knows the simulation's true parameters and forecasts by Monte
// Carlo from the real state. Targets: the estimator's mean absolute error at most 1.3× the
// oracle's and at most 0.7× the old average's on every scenario; 70-90% seated inside their range.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { VenueSettings } from '@vez/contract';
import { migrateToLatest, openDb } from '../apps/server/src/db/connect.js';
import type { EntryRow } from '../apps/server/src/db/types.js';
import { createLocalBus } from '../apps/server/src/plugins/bus.js';
import { type QueueDeps, callEntry, endEntry, joinWaitlist, seatEntry } from '../apps/server/src/modules/queue/index.js';
import { seedDemo } from '../apps/server/src/seed/demo.js';
import { DEMO_BISTRO_ID } from '../apps/server/src/seed/demo.js';
import { addVenueLike } from '../apps/server/test/venues.js';
import { ExponentialAverage, RULE_OF_THUMB_MINUTES, ruleOfThumb } from './lib/baselines.js';
import { TableAware } from './lib/table-aware.js';
import { SCENARIOS } from './lib/estimate-scenarios.js';
import { DAY, type Door, Floor, HOUR, MINUTE, type Scenario, oracleForecast, rng, tablesOf } from './lib/restaurant-sim.js';
import { type BenchReport, round } from './lib/report.js';

const WEEKS = Number(process.env.BENCH_ESTIMATE_WEEKS ?? 4);
/** Weeks scored: the last ones, once the venue has a history of each hour of the week. */
const SCORED_WEEKS = Math.min(2, WEEKS);
const ORACLE_RUNS = Number(process.env.BENCH_ORACLE_RUNS ?? 60);
/** The simulation's seed: another one draws other weeks of the same restaurants. */
const SEED = Number(process.env.BENCH_ESTIMATE_SEED ?? 1_000);
/** A Sunday, midnight UTC: the simulated weeks start here. */
const START = Date.UTC(2026, 0, 4);
const PROTOTYPE = 'tables recorded (prototype)';
/** The same product at a venue that does not list its tables: the estimator's seat-time forecasts alone. */
const PLAIN = 'estimator, no tables listed';
const ESTIMATORS = ['rule of thumb', 'exponential average (before)', 'estimator', PLAIN, 'oracle', PROTOTYPE] as const;
type EstimatorName = (typeof ESTIMATORS)[number];

interface Quote {
  time: number;
  low?: number;
  high?: number;
}

interface Scored {
  actual: number;
  quotes: Partial<Record<EstimatorName, Quote>>;
  /** For BENCH_ESTIMATE_DUMP: the party and what stood before it at join. */
  party?: { size: number; band: number; ahead: number; called: number; aheadInBand: number; calledInBand: number; at: number };
}

interface Figures {
  parties: number;
  meanAbsError: number;
  p90AbsError: number;
  bias: number;
  withinRange: number | null;
}

function figuresOf(scored: Scored[], name: EstimatorName): Figures {
  const rows = scored.filter((s) => s.quotes[name]);
  const errors = rows.map((s) => s.actual - s.quotes[name]!.time);
  const abs = errors.map(Math.abs).sort((a, b) => a - b);
  const ranged = rows.filter((s) => s.quotes[name]!.low !== undefined);
  // The same rule as the console's figures: whole minutes as the diner read them.
  const within = ranged.filter((s) => s.actual >= s.quotes[name]!.low! && Math.floor(s.actual) <= s.quotes[name]!.high!).length;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    parties: rows.length,
    meanAbsError: mean(abs),
    p90AbsError: abs[Math.min(abs.length - 1, Math.floor(0.9 * abs.length))] ?? 0,
    bias: mean(errors),
    withinRange: ranged.length ? within / ranged.length : null,
  };
}

const venueSettings = (s: Scenario, tables: boolean): Partial<VenueSettings> => ({
  tables: tables ? s.tables.map((t) => ({ seats: t.size, count: t.count })) : [],
  operationMode: s.mode,
  maxWaitingParties: null,
  gettingCloseAt: 0,
  holdMinutes: s.holdMinutes,
});

async function runScenario(s: Scenario, index: number, dir: string): Promise<{ scored: Scored[]; seconds: number; joins: number }> {
  const started = performance.now();
  const db = openDb({ kind: 'sqlite', file: path.join(dir, `estimate-${index}.db`) });
  await migrateToLatest(db);
  const clock = { now: START - DAY };
  await seedDemo(db, clock.now);
  const base = JSON.parse(
    (await db.kysely.selectFrom('venues').select('settings').where('id', '=', DEMO_BISTRO_ID).executeTakeFirstOrThrow()).settings,
  ) as object;
  // Two venues hear the same door: one lists its tables (the floor, floor.ts), one does not.
  const venueId = await addVenueLike(db, DEMO_BISTRO_ID, { settings: JSON.stringify({ ...base, ...venueSettings(s, true) }) });
  const plainId = await addVenueLike(db, DEMO_BISTRO_ID, { settings: JSON.stringify({ ...base, ...venueSettings(s, false) }) });
  const deps: QueueDeps = { db, bus: createLocalBus(), now: () => clock.now };

  const rows = new Map<number, EntryRow>();
  const plainRows = new Map<number, EntryRow>();
  const before = new ExponentialAverage();
  const tableAware = new TableAware();
  const pending = new Map<number, Scored['quotes']>();
  const parties = new Map<number, NonNullable<Scored['party']>>();
  const scored: Scored[] = [];
  const r = rng(SEED + s.seed);
  const scoreFrom = START + (WEEKS - SCORED_WEEKS) * 7 * DAY;
  let floor: Floor | null = null;
  let phone = 0;
  let joins = 0;

  const door: Door = {
    async join(p, ahead) {
      joins += 1;
      const body = {
        customer: { name: 'Ana Souza', phone: `+55119${String(70_000_000 + (phone++ % 29_999_999))}` },
        partySize: p.size,
        originLabel: 'Host',
      };
      const row = (await joinWaitlist(deps, venueId, body, { byStaff: true, ignoreLock: true })).entry;
      rows.set(p.id, row);
      const plain = (await joinWaitlist(deps, plainId, body, { byStaff: true, ignoreLock: true })).entry;
      plainRows.set(p.id, plain);
      const prototype = tableAware.quote(p, ahead, p.joinedAt);
      if (p.joinedAt < scoreFrom) return row.quoted_minutes;
      const advanced = s.mode === 'advanced';
      const venuePlace = ahead.waiting.length + 1;
      const bandPlace = ahead.waiting.filter((w) => w.band === p.band).length + 1;
      const place = advanced ? bandPlace : venuePlace;
      const quotes: Scored['quotes'] = { 'rule of thumb': { time: ruleOfThumb(place) } };
      const old = before.quote(advanced ? p.band : null, bandPlace, venuePlace);
      if (old !== null) quotes['exponential average (before)'] = { time: old };
      if (row.quoted_minutes !== null) {
        quotes.estimator = { time: row.quoted_minutes, low: row.quoted_low ?? undefined, high: row.quoted_high ?? undefined };
      }
      if (plain.quoted_minutes !== null) {
        quotes[PLAIN] = { time: plain.quoted_minutes, low: plain.quoted_low ?? undefined, high: plain.quoted_high ?? undefined };
      }
      if (prototype) quotes[PROTOTYPE] = prototype;
      const oracle = await oracleForecast(floor!, p, ORACLE_RUNS, p.id * 31 + s.seed);
      if (oracle) quotes.oracle = oracle;
      pending.set(p.id, quotes);
      parties.set(p.id, {
        size: p.size,
        band: p.band,
        ahead: ahead.waiting.length,
        called: ahead.called.length,
        aheadInBand: ahead.waiting.filter((w) => w.band === p.band).length,
        calledInBand: ahead.called.filter((c) => c.band === p.band).length,
        at: p.joinedAt,
      });
      return row.quoted_minutes;
    },
    async call(p) {
      rows.set(p.id, await callEntry(deps, rows.get(p.id)!));
      plainRows.set(p.id, await callEntry(deps, plainRows.get(p.id)!));
    },
    async seat(p) {
      await seatEntry(deps, rows.get(p.id)!);
      await seatEntry(deps, plainRows.get(p.id)!);
      before.seated([-1, p.band], clock.now);
      tableAware.seated(p, clock.now);
      const quotes = pending.get(p.id);
      if (quotes) scored.push({ actual: (p.seatedAt! - p.joinedAt) / MINUTE, quotes, party: parties.get(p.id) });
      pending.delete(p.id);
      rows.delete(p.id);
      plainRows.delete(p.id);
    },
    async noShow(p) {
      tableAware.forget(p);
      await endEntry(deps, rows.get(p.id)!, 'cancel', 'NoShow');
      await endEntry(deps, plainRows.get(p.id)!, 'cancel', 'NoShow');
      pending.delete(p.id);
      rows.delete(p.id);
      plainRows.delete(p.id);
    },
    async leave(p) {
      tableAware.forget(p);
      await endEntry(deps, rows.get(p.id)!, 'leave', 'Customer');
      await endEntry(deps, plainRows.get(p.id)!, 'leave', 'Customer');
      pending.delete(p.id);
      rows.delete(p.id);
      plainRows.delete(p.id);
    },
  };

  const tables = tablesOf(s);
  for (let d = 0; d < WEEKS * 7; d++) {
    const day = START + d * DAY;
    for (const t of tables) Object.assign(t, { partySize: 0, seatedAt: 0, freeAt: 0, heldFor: null });
    const f = new Floor(s, r, tables, day + s.open * HOUR, day, d * 10_000 + 1);
    floor = f;
    // The product's clock follows the simulation's: every service sees the moment of its event.
    const tick = f.nextEventAt.bind(f);
    f.nextEventAt = () => {
      const t = tick();
      if (t < Infinity) clock.now = t;
      return t;
    };
    await f.run(door);
  }
  await db.close();
  return { scored, seconds: (performance.now() - started) / 1000, joins };
}

export default async function estimateBench(): Promise<BenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-estimate-'));
  const results: { scenario: Scenario; figures: Record<EstimatorName, Figures>; seconds: number; joins: number }[] = [];
  for (const [i, scenario] of SCENARIOS.entries()) {
    // BENCH_ESTIMATE_ONLY=0,2 runs those scenarios alone (a quicker look while tuning).
    if (process.env.BENCH_ESTIMATE_ONLY && !process.env.BENCH_ESTIMATE_ONLY.split(',').includes(String(i))) continue;
    const { scored, seconds, joins } = await runScenario(scenario, i, dir);
    // Every estimator scored on the same parties: those each of them quoted.
    const common = scored.filter((x) =>
      ESTIMATORS.every((name) => name === 'exponential average (before)' || name === PROTOTYPE || name === PLAIN || x.quotes[name]),
    );
    const figures = Object.fromEntries(ESTIMATORS.map((name) => [name, figuresOf(common, name)])) as Record<EstimatorName, Figures>;
    results.push({ scenario, figures, seconds, joins });
    if (process.env.BENCH_ESTIMATE_DUMP) fs.writeFileSync(`${process.env.BENCH_ESTIMATE_DUMP}-${i}.json`, JSON.stringify(common));
    console.log(`${scenario.name}: ${joins} joins, ${common.length} scored parties, ${round(seconds, 1)} s`);
    for (const name of ESTIMATORS) {
      const f = figures[name];
      console.log(
        `  ${name.padEnd(30)} MAE ${round(f.meanAbsError, 1)} p90 ${round(f.p90AbsError, 1)} bias ${round(f.bias, 1)} in range ${f.withinRange === null ? '-' : `${round(f.withinRange * 100)}%`} (${f.parties})`,
      );
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });

  const targets = results.flatMap(({ scenario, figures }) => {
    const mine = figures.estimator;
    const oracle = figures.oracle;
    const old = figures['exponential average (before)'];
    const within = mine.withinRange ?? 0;
    return [
      {
        name: `${scenario.name}: MAE vs the oracle's`,
        value: round(mine.meanAbsError / oracle.meanAbsError, 2),
        target: '<= 1.3',
        met: mine.meanAbsError <= 1.3 * oracle.meanAbsError,
      },
      {
        name: `${scenario.name}: MAE vs the old average's`,
        value: round(mine.meanAbsError / old.meanAbsError, 2),
        target: '<= 0.7',
        met: mine.meanAbsError <= 0.7 * old.meanAbsError,
      },
      {
        name: `${scenario.name}: seated inside the range`,
        value: round(within * 100, 1),
        target: '70-90 %',
        met: within >= 0.7 && within <= 0.9,
      },
    ];
  });

  const table = [
    '| Scenario | Quote | Parties | Mean abs. error (min) | p90 abs. error (min) | Bias (min) | Seated in range |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...results.flatMap(({ scenario, figures }) =>
      ESTIMATORS.map((name) => {
        const f = figures[name];
        const label = name === 'rule of thumb' ? `rule of thumb (${RULE_OF_THUMB_MINUTES} min a party)` : name;
        return `| ${scenario.name} | ${label} | ${f.parties} | ${round(f.meanAbsError, 1)} | ${round(f.p90AbsError, 1)} | ${round(f.bias, 1)} | ${f.withinRange === null ? '—' : `${round(f.withinRange * 100, 1)}%`} |`;
      }),
    ),
  ];
  return {
    title: `Wait quotes against a simulated restaurant: ${SCENARIOS.length} scenarios, ${WEEKS} weeks each (the last ${SCORED_WEEKS} scored), the product's services on SQLite`,
    environment: { weeks: WEEKS, scoredWeeks: SCORED_WEEKS, oracleRuns: ORACLE_RUNS, store: 'sqlite file' },
    figures: Object.fromEntries(
      results.map(({ scenario, figures, seconds, joins }) => [scenario.name, { joins, seconds: round(seconds, 1), ...figures }]),
    ),
    targets,
    markdown: [
      ...table,
      '',
      'Bias is actual minus quoted (positive: waits ran longer than quoted). Parties scored: seated in the scored weeks and quoted by every estimator but the old average, which quotes nothing until it has seen two seatings; a party is inside its range when its wait, in whole minutes, is within it. The oracle forecasts each join by Monte Carlo (' +
        `${ORACLE_RUNS} runs) from the true state with the true parameters: the median and the 10th-90th percentile of its runs.`,
    ].join('\n'),
  };
}
