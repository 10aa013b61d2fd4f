// API throughput on loopback: a bare Fastify route of the same server (the baseline), position
// reads over a queue of ~200 parties, and joins per second on SQLite, at a cold venue (the demo
// bistro: no tables listed, no floor) and at a busy one (bench/lib/busy-venue.ts: tables listed, a
// floor with history, ~200 waiting: every read and join goes through the whole queue's forecast).
// Targets: position reads >= 60% of the bare route; >= 1,000 joins/s; joins >= 20% of the bare
// route with p99 <= 100 ms; busy-venue joins >= 80% of cold-venue joins. In the same run, servers
// with one kept optimisation swapped for its simpler way show what each optimisation still pays.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createBody } from '../apps/server/test/fixtures.js';
import { seedUncappedDemo } from '../apps/server/test/uncapped-demo.js';
import { DEMO_BISTRO_ID } from '../apps/server/src/seed/demo.js';
import { API_VARIANTS, type ApiVariant, forkApiServer } from './lib/api-variants.js';
import { compare, comparisonTable } from './lib/compare.js';
import { measureLoad } from './lib/load.js';
import { type BenchReport, type LoadFigures, loadTable, round } from './lib/report.js';
import { addBusyVenue, fillBusyVenue } from './lib/busy-venue.js';

const QUEUE = 200;
const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_S = 4;

let phoneCounter = 0;
/** A fresh valid Brazilian mobile per join, in order, so no join is a repeat of another. */
const nextPhone = () => `+55 11 9${80_000_000 + (phoneCounter++ % 19_999_999)}`;
/** The tests' create payload (docs/product.md §13), with this bench's phone. */
const joinBody = (partySize = 2, venue = DEMO_BISTRO_ID) =>
  JSON.stringify(createBody({ customer: { phone: nextPhone() }, partySize }, venue));

/**
 * The same comparison by the server's CPU per answer, which other load on the machine changes far
 * less than req/s: what one free core would sustain for each route.
 */
function cpuLines(bare: LoadFigures, position: LoadFigures, joins: LoadFigures): string[] {
  const [b, p, j] = [bare, position, joins].map((f) => f.serverCpuUsPerRequest);
  if (!b || !p || !j) return [];
  return [
    '',
    `By server CPU per answer: a position read costs ${round(p / b, 2)}× a bare request (reads at ${round((b / p) * 100, 1)}% of the bare route on one free core); ` +
      `one free core would answer about ${round(1e6 / p)} position reads/s and ${round(1e6 / j)} joins/s.`,
  ];
}

interface Server {
  variant: ApiVariant;
  url: string;
  child: ChildProcess;
  ids: string[];
  /** The busy venue (busy-venue.ts) and its waiting parties. */
  busy: string;
  busyIds: string[];
  /**
   * One more busy venue per round of busy joins, and one for their warm-up (BUSY_JOINS only): each
   * round joins a queue of ~200, as the reads do, not one grown by the rounds before.
   */
  busyForJoins: string[];
}

/** The servers that also fill the busy venue: the app and the one without the shared forecast. */
const WITH_BUSY: readonly ApiVariant[] = ['app', 'noSharedForecast'];
/**
 * The servers whose joins at a busy venue are measured: the app, the one whose joins forecast the
 * queue (no tail), and the one whose expired books are read and forecast again (not rebased).
 */
const BUSY_JOINS: readonly ApiVariant[] = ['app', 'noJoinTail', 'noRebase'];

/** One server process per variant, each on a store of its own (the demo, no cap of waiting parties). */
async function startServer(variant: ApiVariant, dir: string): Promise<Server> {
  const file = path.join(dir, `${variant}.db`);
  // Thousands of parties join the demo bistro: no cap of waiting parties there (docs/product.md §3).
  await seedUncappedDemo({ kind: 'sqlite', file });
  const busy = await addBusyVenue({ kind: 'sqlite', file });
  const busyForJoins: string[] = [];
  if (BUSY_JOINS.includes(variant)) for (let r = 0; r <= ROUNDS; r++) busyForJoins.push(await addBusyVenue({ kind: 'sqlite', file }));
  const { url, child } = await forkApiServer(variant, file);
  const ids: string[] = [];
  for (let i = 0; i < QUEUE; i++) {
    const res = await fetch(`${url}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: joinBody((i % 8) + 1),
    });
    if (res.status !== 201) throw new Error(`filling the queue: join answered ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { _id: string })._id);
  }
  const fill = (venue: string) => fillBusyVenue(url, venue, (size) => joinBody(size, venue), QUEUE);
  const busyIds = WITH_BUSY.includes(variant) ? await fill(busy) : [];
  for (const venue of busyForJoins) await fill(venue);
  return { variant, url, child, ids, busy, busyIds, busyForJoins };
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.send({ cmd: 'stop' });
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  server.child.kill();
}

type Kind = { kind: string; run: () => Promise<LoadFigures> };

/** Every kind once per round, the order turning by one each round, so other work on the machine hits all alike. */
async function alternate(kinds: Kind[]): Promise<{ round: number; kind: string; figures: LoadFigures; load1m: number }[]> {
  const all: { round: number; kind: string; figures: LoadFigures; load1m: number }[] = [];
  for (let r = 0; r < ROUNDS; r++)
    for (let k = 0; k < kinds.length; k++) {
      const { kind, run } = kinds[(k + r) % kinds.length]!;
      const figures = await run();
      all.push({ round: r + 1, kind, figures, load1m: round(os.loadavg()[0] ?? 0, 2) });
      process.stderr.write(
        `[api] round ${r + 1} ${kind}: ${round(figures.requestsPerSec)} req/s, ${round(figures.serverCpuUsPerRequest ?? NaN)} µs/req\n`,
      );
    }
  return all;
}

const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function run(): Promise<BenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-bench-'));
  const servers = new Map<ApiVariant, Server>();
  try {
    for (const variant of API_VARIANTS) servers.set(variant, await startServer(variant, dir));
    const server = (v: ApiVariant) => servers.get(v)!;
    const headers = { 'content-type': 'application/json' };
    let next = 0;
    const common = { connections: CONNECTIONS, duration: ROUND_S };
    const bareOf = (v: ApiVariant): Kind => ({
      kind: `bare:${v}`,
      run: () =>
        measureLoad(
          'bare Fastify route (GET /api/bench/bare)',
          { ...common, url: `${server(v).url}/api/bench/bare` },
          1,
          server(v).child.pid,
        ),
    });
    const readsOf = (v: ApiVariant): Kind => ({
      kind: `position:${v}`,
      run: () =>
        measureLoad(
          `position read (GET /api/waitlists/{id}/position, ${QUEUE} waiting), ${v}`,
          {
            ...common,
            url: server(v).url,
            requests: [
              {
                method: 'GET',
                setupRequest: (req) => ({ ...req, path: `/api/waitlists/${server(v).ids[next++ % QUEUE]}/position` }),
              },
            ],
          },
          1,
          server(v).child.pid,
        ),
    });
    // Without the shared forecast every read at the busy venue forecasts its whole queue: at 50
    // connections its server would still be working through them during the next kinds. Fewer
    // connections for it; its server CPU per answer is the figure to compare.
    const busyReadsOf = (v: ApiVariant): Kind => ({
      kind: `positionBusy:${v}`,
      run: () =>
        measureLoad(
          `position read at the busy venue (tables, floor, ${QUEUE} waiting), ${v}`,
          {
            ...common,
            ...(v === 'noSharedForecast' ? { connections: 5 } : {}),
            url: server(v).url,
            requests: [
              {
                method: 'GET',
                setupRequest: (req) => ({ ...req, path: `/api/waitlists/${server(v).busyIds[next++ % QUEUE]}/position` }),
              },
            ],
          },
          1,
          server(v).child.pid,
        ),
    });
    // Round r joins the r-th busy venue of its own (`busyForJoins`); the last one is the warm-up's.
    const busyRound = new Map<ApiVariant, number>();
    const busyJoinsOf = (v: ApiVariant): Kind => ({
      kind: `joinBusy:${v}`,
      run: () => {
        const r = busyRound.get(v) ?? 0;
        busyRound.set(v, r + 1);
        const venue = server(v).busyForJoins[r]!;
        return measureLoad(
          `join at a busy venue (tables, floor, ${QUEUE} waiting at the start), ${v}`,
          {
            ...common,
            url: `${server(v).url}/api/waitlists/${venue}/create`,
            requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: joinBody(2, venue) }) }],
          },
          1,
          server(v).child.pid,
        );
      },
    });
    const joinsOf = (v: ApiVariant): Kind => ({
      kind: `join:${v}`,
      run: () =>
        measureLoad(
          `join (POST /api/waitlists/{venueId}/create, unique phones), ${v}`,
          {
            ...common,
            url: `${server(v).url}/api/waitlists/${DEMO_BISTRO_ID}/create`,
            requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: joinBody() }) }],
          },
          1,
          server(v).child.pid,
        ),
    });
    // Reads, then joins (joins grow the queue, which reads would then walk).
    const readRounds = await alternate([
      bareOf('app'),
      bareOf('helmetEachRequest'),
      readsOf('app'),
      readsOf('noKeptPositions'),
      readsOf('noStatementCache'),
      busyReadsOf('app'),
      busyReadsOf('noSharedForecast'),
    ]);
    // Kept answers serve most reads of a quiet queue; here the queue changes 10 times a second
    // (a join every 100 ms), each change voiding the venue's kept answers: reads go to the store again.
    const app = server('app');
    const createUrl = `${app.url}/api/waitlists/${DEMO_BISTRO_ID}/create`;
    const churn = setInterval(() => void fetch(createUrl, { method: 'POST', headers, body: joinBody() }).catch(() => {}), 100);
    const churning = await measureLoad(
      `position read while the queue changes 10×/s (a join every 100 ms)`,
      {
        ...common,
        url: app.url,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/waitlists/${app.ids[next++ % QUEUE]}/position` }) }],
      },
      1,
      app.child.pid,
    );
    clearInterval(churn);
    const joinKinds = [
      joinsOf('app'),
      joinsOf('oneTransactionPerJoin'),
      joinsOf('noStatementCache'),
      joinsOf('notifierOwnCommits'),
      joinsOf('compiledEachTime'),
      joinsOf('subjournalOnDisk'),
      joinsOf('twoPhoneIndexes'),
      joinsOf('throughKysely'),
      joinsOf('wholeIndexes'),
      busyJoinsOf('app'),
      busyJoinsOf('noJoinTail'),
      busyJoinsOf('noRebase'),
    ];
    // The join path's first seconds (JIT, SQLite's pages) count for nothing: each server joins 2 s first.
    for (const v of [
      'app',
      'oneTransactionPerJoin',
      'noStatementCache',
      'notifierOwnCommits',
      'compiledEachTime',
      'subjournalOnDisk',
      'twoPhoneIndexes',
      'throughKysely',
      'wholeIndexes',
    ] as const)
      await measureLoad(
        'warm-up',
        {
          ...common,
          duration: 2,
          url: `${server(v).url}/api/waitlists/${DEMO_BISTRO_ID}/create`,
          requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: joinBody() }) }],
        },
        0,
      );
    for (const v of BUSY_JOINS)
      await measureLoad(
        'warm-up',
        {
          ...common,
          duration: 2,
          url: `${server(v).url}/api/waitlists/${server(v).busyForJoins.at(-1)!}/create`,
          requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: joinBody(2, server(v).busyForJoins.at(-1)!) }) }],
        },
        0,
      );
    const joinRounds = await alternate(joinKinds);

    const all = [...readRounds, ...joinRounds];
    const series = (kind: string, pick: (f: LoadFigures) => number) =>
      all
        .filter((x) => x.kind === kind)
        .sort((a, b) => a.round - b.round)
        .map((x) => pick(x.figures));
    const rps = (kind: string) => series(kind, (f) => f.requestsPerSec);
    const cpu = (kind: string) => series(kind, (f) => f.serverCpuUsPerRequest ?? NaN);
    const both = (name: string, optimised: string, simpler: string) => [
      compare(name, 'req/s', rps(optimised), rps(simpler), 'higher'),
      compare(name, 'server CPU µs/req', cpu(optimised), cpu(simpler), 'lower'),
    ];
    const comparisons = [
      ...both('security headers worked out once vs helmet built per request (bare route)', 'bare:app', 'bare:helmetEachRequest'),
      ...both('kept position answers vs none (position reads)', 'position:app', 'position:noKeptPositions'),
      ...both('statement cache vs none (position reads)', 'position:app', 'position:noStatementCache'),
      ...both('SQLite group commit vs one transaction per join (joins)', 'join:app', 'join:oneTransactionPerJoin'),
      ...both('statement cache vs none (joins)', 'join:app', 'join:noStatementCache'),
      ...both('message worker in the write batch vs commits of its own (joins)', 'join:app', 'join:notifierOwnCommits'),
      ...both("join's queries compiled once vs on each run (joins)", 'join:app', 'join:compiledEachTime'),
      ...both("SQLite's savepoint sub-journals in memory vs spilled to a file (joins)", 'join:app', 'join:subjournalOnDisk'),
      ...both("one index of the entries' phone vs two (joins)", 'join:app', 'join:twoPhoneIndexes'),
      ...both("compiled statements straight on better-sqlite3 vs through Kysely's executor (joins)", 'join:app', 'join:throughKysely'),
      ...both('partial indexes vs whole ones (joins)', 'join:app', 'join:wholeIndexes'),
      ...both('shared forecast vs each reader its own (busy-venue position reads)', 'positionBusy:app', 'positionBusy:noSharedForecast'),
      ...both(
        'joins at the end placed on the forecast tail vs forecast with the queue (busy-venue joins)',
        'joinBusy:app',
        'joinBusy:noJoinTail',
      ),
      ...both('expired books rebased vs read and forecast again (busy-venue joins)', 'joinBusy:app', 'joinBusy:noRebase'),
    ];
    const ratios = readRounds
      .filter((x) => x.kind === 'position:app')
      .map((x) => x.figures.requestsPerSec / readRounds.find((b) => b.round === x.round && b.kind === 'bare:app')!.figures.requestsPerSec);
    const readRatio = medianOf(ratios);
    const pick = (kind: string) => {
      const rows = all.filter((x) => x.kind === kind);
      return [...rows].sort((a, b) => a.figures.requestsPerSec - b.figures.requestsPerSec)[Math.floor(rows.length / 2)]!.figures;
    };
    const bare = pick('bare:app');
    const position = pick('position:app');
    const joins = pick('join:app');
    const positionBusy = pick('positionBusy:app');
    const joinsBusy = pick('joinBusy:app');
    // Per round, as the reads to the bare route: each against the other kind measured in the same round.
    const perRound = (kind: string, base: string) =>
      all
        .filter((x) => x.kind === kind)
        .map((x) => x.figures.requestsPerSec / all.find((b) => b.round === x.round && b.kind === base)!.figures.requestsPerSec);
    const busyToCold = medianOf(perRound('joinBusy:app', 'join:app'));
    // The same with the kept books read again at each expiry (docs/decisions/047-rebased-books.md).
    const busyToColdNoRebase = medianOf(perRound('joinBusy:noRebase', 'join:app'));
    const roundTable = [
      '| round | kind | req/s | p50 ms | p99 ms | server CPU µs/req | non-2xx | errors | load 1 min |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
      ...all.map(
        (x) =>
          `| ${x.round} | ${x.kind} | ${round(x.figures.requestsPerSec)} | ${x.figures.p50Ms} | ${x.figures.p99Ms} | ${round(x.figures.serverCpuUsPerRequest ?? NaN)} | ${x.figures.non2xx} | ${x.figures.errors} | ${x.load1m} |`,
      ),
    ].join('\n');
    const headline = [bare, position, churning, joins, positionBusy, joinsBusy];
    // A failed answer is not throughput: a run with any counts as a missed target.
    const clean = (f: LoadFigures) => f.non2xx === 0 && f.errors === 0;
    const allClean = all.filter((x) => x.kind.endsWith(':app')).every((x) => clean(x.figures));
    const joinRatio = joins.requestsPerSec / bare.requestsPerSec;
    return {
      title: 'API throughput on loopback (autocannon), SQLite',
      environment: {
        store: 'SQLite (WAL, synchronous=FULL)',
        connections: CONNECTIONS,
        rounds: `${ROUNDS} × ${ROUND_S} s each kind, order turning`,
        warmupS: 1,
        queue: QUEUE,
        variants: API_VARIANTS.join(', '),
        logLevel: 'warn',
      },
      figures: {
        bare,
        position,
        positionWhileChanging: churning,
        joins,
        positionBusy,
        joinsBusy,
        ratios: {
          positionToBare: round(readRatio, 3),
          joinsToBare: round(joinRatio, 3),
          busyJoinsToColdJoins: round(busyToCold, 3),
          busyJoinsToColdJoinsPerRound: perRound('joinBusy:app', 'join:app').map((r) => round(r, 3)),
          busyJoinsNoRebaseToColdJoins: round(busyToColdNoRebase, 3),
          positionToBarePerRound: ratios.map((r) => round(r, 3)),
        },
        comparisons,
        rounds: all,
        loadAverageAtEnd: os.loadavg().map((l) => round(l, 2)),
      },
      targets: [
        {
          name: 'position reads / bare route',
          value: round(readRatio, 3),
          target: '>= 0.60',
          met: readRatio >= 0.6 && allClean,
        },
        {
          name: 'joins per second (SQLite)',
          value: round(joins.requestsPerSec),
          target: '>= 1000',
          met: joins.requestsPerSec >= 1000 && allClean,
        },
        {
          name: `joins / bare route, with p99 <= 100 ms at ${CONNECTIONS} connections (p99 ${joins.p99Ms} ms)`,
          value: round(joinRatio, 3),
          target: '>= 0.20',
          met: joinRatio >= 0.2 && joins.p99Ms <= 100 && allClean,
        },
        {
          name: 'busy-venue joins / cold-venue joins (median of rounds)',
          value: round(busyToCold, 3),
          target: '>= 0.80',
          met: busyToCold >= 0.8 && allClean,
        },
      ],
      markdown: [
        `One server process per variant (the app as shipped, and the app with one kept optimisation swapped for its simpler way, docs/decisions/018-optimisations-that-pay.md), each on a SQLite store of its own; every kind of load runs once per round for ${ROUND_S} s after 1 s of warm-up, the order turning each round, ${ROUNDS} rounds.`,
        '',
        comparisonTable(comparisons),
        '',
        'The app as shipped (the median round of each):',
        '',
        loadTable(headline),
        '',
        `Position reads reach ${round(readRatio * 100, 1)}% of the bare route's throughput (median of ${ROUNDS} rounds: ${ratios.map((r) => `${round(r * 100, 1)}%`).join(', ')}); joins ${round(joinRatio * 100, 1)}%.`,
        `At the busy venue (tables listed, a floor with history, ${QUEUE}+ waiting): position reads ${round(positionBusy.requestsPerSec)} req/s, joins (each round at a venue of its own, ${QUEUE} waiting at the start) ${round(joinsBusy.requestsPerSec)} req/s (p99 ${joinsBusy.p99Ms} ms), ${round(busyToCold * 100, 1)}% of the cold venue's joins (median of rounds; ${round(busyToColdNoRebase * 100, 1)}% with expired books read again, not rebased).`,
        `A position answer is kept, serialised, until something happens at its venue (or 1 s passes): on a quiet queue most reads are a lookup. ` +
          `While the queue changes 10 times a second every read after a change goes to the store again: ${round(churning.requestsPerSec)} req/s (${round((churning.requestsPerSec / bare.requestsPerSec) * 100, 1)}% of the bare route).`,
        ...cpuLines(bare, position, joins),
        '',
        'Every round:',
        '',
        roundTable,
      ].join('\n'),
    };
  } finally {
    await Promise.all([...servers.values()].map(stopServer));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
