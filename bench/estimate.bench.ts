// Quotes measured against a simulated restaurant (docs/decisions/022-wait-estimates.md; the method
// and its rules in bench/README.md). Each scenario runs several weeks of services through the
// product's own queue services (join, call, seat, no-show, leave) on a real SQLite file, with the
// simulation's clock. For every party seated in the last weeks (the first ones build the history),
// the quote it got at join, and the position page's later quotes while it waited, are compared with
// the wait that followed, side by side with a rule of thumb, the exponential average the product
// used before, a count-based regression (the simple baseline) and an oracle that knows the
// simulation's true parameters and forecasts by Monte Carlo from the real state. Training and
// held-out scenarios (bench/lib/estimate-scenarios.ts) are reported apart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { VenueSettings } from '@vez/contract';
import { migrateToLatest, openDb } from '../apps/server/src/db/connect.js';
import type { EntryRow } from '../apps/server/src/db/types.js';
import { createLocalBus } from '../apps/server/src/plugins/bus.js';
import { type QueueDeps, callEntry, endEntry, getPosition, joinWaitlist, seatEntry } from '../apps/server/src/modules/queue/index.js';
import { seedDemo } from '../apps/server/src/seed/demo.js';
import { DEMO_BISTRO_ID } from '../apps/server/src/seed/demo.js';
import { addVenueLike } from '../apps/server/test/venues.js';
import { CountRegression, type Counts, ExponentialAverage, ruleOfThumb } from './lib/baselines.js';
import { type EstimatorName, OLD, PLAIN, PROTOTYPE, REGRESSION, type Row, reportOf, summaryLines } from './lib/estimate-report.js';
import type { Quote } from './lib/estimate-metrics.js';
import { SCENARIOS } from './lib/estimate-scenarios.js';
import { DAY, type Door, Floor, HOUR, MINUTE, type Party, type Scenario, oracleForecast, rng, tablesOf } from './lib/restaurant-sim.js';
import { TableAware } from './lib/table-aware.js';
import type { BenchReport } from './lib/report.js';

/** Weeks per scenario (BENCH_ESTIMATE_WEEKS=2 for a quicker look while developing). */
const WEEKS = Number(process.env.BENCH_ESTIMATE_WEEKS ?? 4);
/** Weeks scored: the last ones, once the venue has a history of each hour of the week. */
const SCORED_WEEKS = Math.min(2, WEEKS);
/** Futures the oracle plays per quote: its median moves by well under a minute beyond 60. */
const ORACLE_RUNS = Number(process.env.BENCH_ORACLE_RUNS ?? 60);
/** The position page is read for every waiting party this often (simulated minutes). */
const REQUOTE_MINUTES = Number(process.env.BENCH_ESTIMATE_REQUOTE_MINUTES ?? 10);
/** The simulation's seed: another one draws other weeks of the same restaurants (each scenario adds its own offset). */
const SEED = Number(process.env.BENCH_ESTIMATE_SEED ?? 1_000);
/** A Sunday, midnight UTC: the simulated weeks start here. */
const START = Date.UTC(2026, 0, 4);

/** What stood before a party (for BENCH_ESTIMATE_DUMP). */
type Before = { size: number; band: number; ahead: number; called: number; aheadInBand: number; calledInBand: number; at: number };

/** A re-quote's party and moment (for BENCH_ESTIMATE_DUMP). */
type RequoteBefore = { id: number; size: number; waited: number; ahead: number; called: number; afterClose: boolean; at: number };

const venueSettings = (s: Scenario, tables: boolean): Partial<VenueSettings> => ({
  tables: tables ? s.tables.map((t) => ({ seats: t.size, count: t.count })) : [],
  operationMode: s.mode,
  maxWaitingParties: null,
  gettingCloseAt: 0,
  holdMinutes: s.holdMinutes,
});

const rangeOf = (time: number | null | undefined, range: { low: number; high: number } | null | undefined): Quote | undefined =>
  time === null || time === undefined ? undefined : { time, low: range?.low, high: range?.high };

/** The counts the regression reads: the whole queue in basic mode, the band's in advanced mode (where bands have their own tables). */
function countsOf(s: Scenario, p: Party, waitingAhead: Party[], called: Party[]): Counts {
  const mine = (x: Party) => s.mode === 'basic' || x.band === p.band;
  return { ahead: waitingAhead.filter(mine).length, called: called.filter(mine).length };
}

async function runScenario(s: Scenario, index: number, dir: string): Promise<Row> {
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
  const advanced = s.mode === 'advanced';

  const rows = new Map<number, EntryRow>();
  const plainRows = new Map<number, EntryRow>();
  const before = new ExponentialAverage();
  const regression = new CountRegression();
  const tableAware = new TableAware();
  /** Per party: its counts at join and the regression's forecast then (what the venue can learn from at the seat). */
  const atJoin = new Map<number, { counts: Counts; forecast: number | null }>();
  const pending = new Map<number, { quotes: Row['joins'][number]['quotes']; before: Before; day: number }>();
  const pendingRequotes = new Map<
    number,
    { at: number; day: number; quotes: Row['requotes'][number]['quotes']; before: RequoteBefore }[]
  >();
  const joins: Row['joins'] = [];
  const requotes: Row['requotes'] = [];
  const r = rng(SEED + s.seed);
  const scoreFrom = START + (WEEKS - SCORED_WEEKS) * 7 * DAY;
  let floor: Floor | null = null;
  let day = 0;
  let phone = 0;
  let joinCount = 0;

  /** The quotes every simple estimator gives a party with these counts before it. */
  const simpleQuotes = (p: Party, counts: Counts, venuePlace: number, bandPlace: number) => {
    const quotes: Partial<Record<EstimatorName, Quote>> = { 'rule of thumb': { time: ruleOfThumb(advanced ? bandPlace : venuePlace) } };
    const old = before.quote(advanced ? p.band : null, bandPlace, venuePlace);
    if (old !== null) quotes[OLD] = { time: old };
    const line = regression.quote(p.band, counts);
    if (line) quotes[REGRESSION] = line;
    return quotes;
  };

  const forget = (p: Party) => {
    pending.delete(p.id);
    pendingRequotes.delete(p.id);
    rows.delete(p.id);
    plainRows.delete(p.id);
    atJoin.delete(p.id);
  };

  const door: Door = {
    async join(p, ahead) {
      joinCount += 1;
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
      const counts = countsOf(s, p, ahead.waiting, ahead.called);
      atJoin.set(p.id, { counts, forecast: regression.predict(p.band, counts) });
      if (p.joinedAt < scoreFrom) return row.quoted_minutes;
      const venuePlace = ahead.waiting.length + 1;
      const bandPlace = ahead.waiting.filter((w) => w.band === p.band).length + 1;
      const quotes = simpleQuotes(p, counts, venuePlace, bandPlace);
      quotes.estimator = rangeOf(row.quoted_minutes, row.quoted_low === null ? null : { low: row.quoted_low, high: row.quoted_high! });
      quotes[PLAIN] = rangeOf(plain.quoted_minutes, plain.quoted_low === null ? null : { low: plain.quoted_low, high: plain.quoted_high! });
      if (prototype) quotes[PROTOTYPE] = prototype;
      const oracle = await oracleForecast(floor!, p, ORACLE_RUNS, p.id * 31 + s.seed);
      if (oracle) quotes.oracle = oracle;
      const aheadInBand = ahead.waiting.filter((w) => w.band === p.band).length;
      const calledInBand = ahead.called.filter((c) => c.band === p.band).length;
      const info = {
        size: p.size,
        band: p.band,
        ahead: ahead.waiting.length,
        called: ahead.called.length,
        aheadInBand,
        calledInBand,
        at: p.joinedAt,
      };
      pending.set(p.id, { quotes, before: info, day });
      return row.quoted_minutes;
    },
    async call(p) {
      rows.set(p.id, await callEntry(deps, rows.get(p.id)!));
      plainRows.set(p.id, await callEntry(deps, plainRows.get(p.id)!));
    },
    async seat(p) {
      // The venue learns from what its console heard: the tap's moment (late in `late console taps`).
      await seatEntry(deps, rows.get(p.id)!);
      await seatEntry(deps, plainRows.get(p.id)!);
      before.seated([-1, p.band], clock.now);
      tableAware.seated(p, clock.now);
      const join = atJoin.get(p.id);
      if (join) regression.seated(p.band, join.counts, (clock.now - p.joinedAt) / MINUTE, join.forecast);
      // Scored against the true seat: what the diner lived.
      const quoted = pending.get(p.id);
      if (quoted)
        joins.push({ actual: (p.seatedAt! - p.joinedAt) / MINUTE, day: quoted.day, quotes: quoted.quotes, before: quoted.before });
      for (const q of pendingRequotes.get(p.id) ?? [])
        requotes.push({ actual: (p.seatedAt! - q.at) / MINUTE, day: q.day, quotes: q.quotes, before: q.before });
      forget(p);
    },
    async noShow(p) {
      tableAware.forget(p);
      await endEntry(deps, rows.get(p.id)!, 'cancel', 'NoShow');
      await endEntry(deps, plainRows.get(p.id)!, 'cancel', 'NoShow');
      forget(p);
    },
    async leave(p) {
      tableAware.forget(p);
      await endEntry(deps, rows.get(p.id)!, 'leave', 'Customer');
      await endEntry(deps, plainRows.get(p.id)!, 'leave', 'Customer');
      forget(p);
    },
  };

  /** The position page of every waiting party, read as the diner would (getPosition), with every other estimator beside it. */
  const requote = async () => {
    const f = floor!;
    if (f.now < scoreFrom) return;
    for (const [i, p] of f.waiting.entries()) {
      if (!rows.has(p.id) || f.now <= p.joinedAt) continue;
      const [mine, plain] = await Promise.all([getPosition(deps, rows.get(p.id)!.id), getPosition(deps, plainRows.get(p.id)!.id)]);
      const waitingAhead = f.waiting.slice(0, i);
      const counts = countsOf(s, p, waitingAhead, f.called);
      const quotes = simpleQuotes(p, counts, i + 1, waitingAhead.filter((w) => w.band === p.band).length + 1);
      quotes.estimator = rangeOf(mine.waitlist.estimatedTime, mine.waitlist.estimatedRange);
      quotes[PLAIN] = rangeOf(plain.waitlist.estimatedTime, plain.waitlist.estimatedRange);
      const oracle = await oracleForecast(f, p, ORACLE_RUNS, p.id * 31 + s.seed + Math.round(f.now / MINUTE));
      if (oracle) quotes.oracle = oracle;
      const list = pendingRequotes.get(p.id) ?? [];
      const before: RequoteBefore = {
        id: p.id,
        size: p.size,
        waited: (f.now - p.joinedAt) / MINUTE,
        ahead: i,
        called: f.called.length,
        afterClose: f.now >= f.closesAt,
        at: f.now,
      };
      list.push({ at: f.now, day, quotes, before });
      pendingRequotes.set(p.id, list);
    }
  };

  const tables = tablesOf(s);
  for (let d = 0; d < WEEKS * 7; d++) {
    day = d;
    const midnight = START + d * DAY;
    for (const t of tables) Object.assign(t, { partySize: 0, seatedAt: 0, freeAt: 0, heldFor: null });
    const f = new Floor(s, r, tables, midnight + s.open * HOUR, midnight, d * 10_000 + 1);
    floor = f;
    f.sampler = { every: REQUOTE_MINUTES * MINUTE, next: f.now + REQUOTE_MINUTES * MINUTE, run: requote };
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
  return { scenario: s, joins, requotes, seconds: (performance.now() - started) / 1000, joinCount };
}

export default async function estimateBench(): Promise<BenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-estimate-'));
  const results: Row[] = [];
  for (const [i, scenario] of SCENARIOS.entries()) {
    // BENCH_ESTIMATE_ONLY=0,2 runs those scenarios alone (a quicker look while developing).
    if (process.env.BENCH_ESTIMATE_ONLY && !process.env.BENCH_ESTIMATE_ONLY.split(',').includes(String(i))) continue;
    const row = await runScenario(scenario, i, dir);
    results.push(row);
    if (process.env.BENCH_ESTIMATE_DUMP) fs.writeFileSync(`${process.env.BENCH_ESTIMATE_DUMP}-${i}.json`, JSON.stringify(row.joins));
    if (process.env.BENCH_ESTIMATE_DUMP)
      fs.writeFileSync(`${process.env.BENCH_ESTIMATE_DUMP}-${i}-requotes.json`, JSON.stringify(row.requotes));
    for (const line of summaryLines(row)) console.log(line);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return reportOf(results, {
    weeks: WEEKS,
    scoredWeeks: SCORED_WEEKS,
    oracleRuns: ORACLE_RUNS,
    requoteMinutes: REQUOTE_MINUTES,
    seed: SEED,
    store: 'sqlite file',
  });
}
