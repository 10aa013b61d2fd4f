// API throughput on loopback: a bare Fastify route of the same server (the baseline), position
// reads over a queue of ~200 parties, and joins per second on SQLite. Targets: position
// reads >= 60% of the bare route; >= 1,000 joins/s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBody } from '../apps/server/test/fixtures.js';
import { startServerProcess } from '../apps/server/test/server-process.js';
import { seedUncappedDemo } from '../apps/server/test/uncapped-demo.js';
import { DEMO_BISTRO_ID } from '../apps/server/src/seed/demo.js';
import { measureLoad } from './lib/load.js';
import { type BenchReport, type LoadFigures, loadTable, round } from './lib/report.js';

const QUEUE = 200;
const CONNECTIONS = 50;
const DURATION_S = 10;
const ROUNDS = 3;
const ROUND_S = 5;

let phoneCounter = 0;
/** A fresh valid Brazilian mobile per join, in order, so no join is a repeat of another. */
const nextPhone = () => `+55 11 9${80_000_000 + (phoneCounter++ % 19_999_999)}`;
/** The tests' create payload (docs/product.md §13), with this bench's phone. */
const joinBody = (partySize = 2) => JSON.stringify(createBody({ customer: { phone: nextPhone() }, partySize }));

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

export default async function run(): Promise<BenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-bench-'));
  const env = {
    DATABASE_URL: `file:${path.join(dir, 'vez.db')}`,
    BENCH_BARE_ROUTE: '1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    // The limits protect production from one address; the bench is one address by design.
    RATE_LIMIT_JOINS_PER_10_MIN: '100000000',
    RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000000',
    RATE_LIMIT_READS_PER_MIN: '100000000',
  };
  // Thousands of parties join the demo bistro: no cap of waiting parties there (docs/product.md §3).
  await seedUncappedDemo({ kind: 'sqlite', file: path.join(dir, 'vez.db') });
  const server = await startServerProcess(env);
  try {
    const url = server.url;
    const createUrl = `${url}/api/waitlists/${DEMO_BISTRO_ID}/create`;
    const headers = { 'content-type': 'application/json' };

    const ids: string[] = [];
    for (let i = 0; i < QUEUE; i++) {
      const res = await fetch(createUrl, { method: 'POST', headers, body: joinBody((i % 8) + 1) });
      if (res.status !== 201) throw new Error(`filling the queue: join answered ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { _id: string })._id);
    }

    const common = { url, connections: CONNECTIONS, duration: DURATION_S };
    const pid = server.child.pid;
    // Other work on a shared machine comes and goes: bare and position runs alternate, and the
    // round with the median ratio is reported (every round is kept in the JSON).
    const rounds: { bare: LoadFigures; position: LoadFigures; ratio: number }[] = [];
    let next = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const bareRun = await measureLoad(
        'bare Fastify route (GET /api/bench/bare)',
        { ...common, duration: ROUND_S, url: `${url}/api/bench/bare` },
        1,
        pid,
      );
      const positionRun = await measureLoad(
        `position read (GET /api/waitlists/{id}/position, ${QUEUE} waiting)`,
        {
          ...common,
          duration: ROUND_S,
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/waitlists/${ids[next++ % ids.length]}/position` }) }],
        },
        1,
        pid,
      );
      rounds.push({ bare: bareRun, position: positionRun, ratio: positionRun.requestsPerSec / bareRun.requestsPerSec });
    }
    const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(ROUNDS / 2)] as (typeof rounds)[number];
    const { bare, position } = median;
    // Kept answers serve most reads of a quiet queue; here the queue changes 10 times a second
    // (a join every 100 ms), each change voiding the venue's kept answers: reads go to the store again.
    const churn = setInterval(() => void fetch(createUrl, { method: 'POST', headers, body: joinBody() }).catch(() => {}), 100);
    const churning = await measureLoad(
      `position read while the queue changes 10×/s (a join every 100 ms)`,
      {
        ...common,
        duration: ROUND_S,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/waitlists/${ids[next++ % ids.length]}/position` }) }],
      },
      1,
      pid,
    );
    clearInterval(churn);
    const joins = await measureLoad(
      'join (POST /api/waitlists/{venueId}/create, unique phones)',
      {
        ...common,
        url: createUrl,
        requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: joinBody() }) }],
      },
      2,
      pid,
    );
    const all = [bare, position, churning, joins];
    // A failed answer is not throughput: a run with any counts as a missed target.
    const clean = (f: LoadFigures) => f.non2xx === 0 && f.errors === 0;

    const readRatio = position.requestsPerSec / bare.requestsPerSec;
    const joinRatio = joins.requestsPerSec / bare.requestsPerSec;
    return {
      title: 'API throughput on loopback (autocannon), SQLite',
      environment: {
        store: 'SQLite (WAL, synchronous=FULL)',
        connections: CONNECTIONS,
        durationS: DURATION_S,
        readRounds: `${ROUNDS} × ${ROUND_S} s`,
        warmupS: 2,
        queue: QUEUE,
        logLevel: env.LOG_LEVEL,
      },
      figures: {
        bare,
        position,
        positionWhileChanging: churning,
        joins,
        ratios: { positionToBare: round(readRatio, 3), joinsToBare: round(joinRatio, 3) },
        readRounds: rounds.map((r) => ({ bare: r.bare, position: r.position, ratio: round(r.ratio, 3) })),
        loadAverageAtEnd: os.loadavg().map((l) => round(l, 2)),
      },
      targets: [
        {
          name: 'position reads / bare route',
          value: round(readRatio, 3),
          target: '>= 0.60',
          met: readRatio >= 0.6 && clean(position) && clean(bare),
        },
        {
          name: 'joins per second (SQLite)',
          value: round(joins.requestsPerSec),
          target: '>= 1000',
          met: joins.requestsPerSec >= 1000 && clean(joins),
        },
      ],
      markdown: [
        loadTable(all),
        '',
        `Position reads reach ${round(readRatio * 100, 1)}% of the bare route's throughput (median of ${ROUNDS} alternating rounds of ${ROUND_S} s: ${rounds.map((r) => `${round(r.ratio * 100, 1)}%`).join(', ')}); joins ${round(joinRatio * 100, 1)}%.`,
        `A position answer is kept, serialised, until something happens at its venue (or 1 s passes): on a quiet queue most reads are a lookup. ` +
          `While the queue changes 10 times a second every read after a change goes to the store again: ${round(churning.requestsPerSec)} req/s (${round((churning.requestsPerSec / bare.requestsPerSec) * 100, 1)}% of the bare route).`,
        ...cpuLines(bare, position, joins),
      ].join('\n'),
    };
  } finally {
    await server.stop('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
