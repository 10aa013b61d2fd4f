// Real-time fan-out: 10,000 concurrent diner streams (SSE) on one venue in ONE server
// process, clients in a second process. One queue change (the host seats the party at the head,
// so every diner's position changes) must reach all of them: p50/p99 delivery latency from the
// moment the host's request is sent, and the server's memory per open stream. In the same run, a
// bare broadcast (the same payload written straight to the same sockets, as the app writes) is the baseline.
// Rounds of the app alternate with rounds of its simpler ways of writing (docs/decisions/018-optimisations-that-pay.md).
// Targets: p99 <= 250 ms, <= 1.5x the bare broadcast's p99, <= 30 KB per connection.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDb } from '../apps/server/src/db/connect.js';
import type { NewEntryRow } from '../apps/server/src/db/types.js';
import { newEntryId } from '../apps/server/src/lib/ids.js';
import type { FanoutVariant } from './lib/fanout-variants.js';
import { DEMO_BISTRO_ID, seedDemo } from '../apps/server/src/seed/demo.js';
import { compare, comparisonTable } from './lib/compare.js';
import { type BenchReport, round } from './lib/report.js';

const N = Number(process.env.BENCH_STREAMS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/**
 * The app's ways of writing a fan-out, each seated in every round on the same open streams: the
 * kept optimisations against the simpler ways (docs/decisions/018-optimisations-that-pay.md).
 */
const VARIANTS: { name: string; label: string; fanout: FanoutVariant }[] = [
  { name: 'app', label: 'app as shipped: templates, whole chunks to the socket', fanout: { responseWrites: false, stringifyEach: false } },
  { name: 'response', label: 'app, templates, through res.write', fanout: { responseWrites: true, stringifyEach: false } },
  {
    name: 'stringify',
    label: 'app, JSON.stringify per diner, chunks to the socket',
    fanout: { responseWrites: false, stringifyEach: true },
  },
  { name: 'plain', label: 'app, JSON.stringify per diner, through res.write', fanout: { responseWrites: true, stringifyEach: true } },
];
/** Parties at the head of the queue, seated one per app round (the warm-up round included). */
const HEADS = (ROUNDS + 1) * VARIANTS.length;
const now = () => performance.timeOrigin + performance.now();
const log = (line: string) => process.stderr.write(`[realtime] ${line}\n`);

function start(file: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; hello: Record<string, unknown> }> {
  const child = fork(path.join(import.meta.dirname, 'lib', file), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (hello) => resolve({ child, hello: hello as Record<string, unknown> }));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** One change per round; the latency of every stream from the trigger to its first new message. */
interface Round {
  /** From sending the request (app) or the IPC message (bare) that starts the change. */
  p50: number;
  p99: number;
  max: number;
  /** From the moment the server had the change in hand (app: the change published after commit; bare: loop start). */
  fanoutP50: number;
  fanoutP99: number;
  /** Server CPU time (user + system) spent on the round. */
  serverCpuMs: number;
  received: number;
}

type Trigger = () => Promise<void>;

/** One change: every stream's latency from the trigger to its first new message. */
async function measure(server: ChildProcess, clients: ChildProcess, trigger: Trigger): Promise<Round> {
  await ask(clients, { cmd: 'arm' });
  await ask(server, { cmd: 'arm' });
  const cpu0 = (await ask<{ cpu: NodeJS.CpuUsage }>(server, { cmd: 'cpu' })).cpu;
  const t0 = now();
  await trigger();
  const { times } = await ask<{ times: number[] }>(clients, { cmd: 'collect', timeoutMs: 20_000 });
  const cpu1 = (await ask<{ cpu: NodeJS.CpuUsage }>(server, { cmd: 'cpu' })).cpu;
  const { handedOffAt } = await ask<{ handedOffAt: number }>(server, { cmd: 'handedOffAt' });
  const got = times
    .filter((t) => t > 0)
    .map((t) => t - t0)
    .sort((a, b) => a - b);
  const fanout = times
    .filter((t) => t > 0)
    .map((t) => t - handedOffAt)
    .sort((a, b) => a - b);
  return {
    p50: round(percentile(got, 50), 1),
    p99: round(percentile(got, 99), 1),
    max: round(got.at(-1) ?? NaN, 1),
    fanoutP50: round(percentile(fanout, 50), 1),
    fanoutP99: round(percentile(fanout, 99), 1),
    serverCpuMs: round((cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1000, 1),
    received: got.length,
  };
}

type Kind = string;

/**
 * Every kind of round (each app variant, the two bare broadcasts) once per round, the order
 * turning by one each round (A,B,C / B,C,A / ...), so all see the same machine: other work on it
 * slows whichever round it hits. The warm-up round is not counted; the median round by p99 decides.
 */
async function rounds(server: ChildProcess, clients: ChildProcess, kinds: { kind: Kind; trigger: () => Promise<Trigger> }[]) {
  const all: { round: number; kind: Kind; result: Round; load1m: number }[] = [];
  const pause = () => new Promise((done) => setTimeout(done, 300));
  for (let r = 0; r <= ROUNDS; r++) {
    for (let k = 0; k < kinds.length; k++) {
      const { kind, trigger } = kinds[(k + r) % kinds.length]!;
      const result = await measure(server, clients, await trigger());
      all.push({ round: r, kind, result, load1m: round(os.loadavg()[0] ?? 0, 2) });
      log(`round ${r} ${kind}: fan-out p99 ${result.fanoutP99} ms, p99 ${result.p99} ms, received ${result.received}`);
      await pause();
    }
  }
  const measured = all.filter((x) => x.round > 0);
  const of = (kind: Kind) => measured.filter((x) => x.kind === kind).map((x) => x.result);
  const median = (kind: Kind) => [...of(kind)].sort((x, y) => x.p99 - y.p99)[Math.floor(of(kind).length / 2)]!;
  return { all, of, median };
}

export default async function run(): Promise<BenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-bench-rt-'));
  const file = path.join(dir, 'vez.db');
  // The queue: the demo's three parties at the head (seated one per round), then N diners.
  const db = openDb({ kind: 'sqlite', file });
  await migrateToLatest(db);
  await seedDemo(db);
  const ids: string[] = [];
  const t = Date.now();
  await db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < N; i++) {
      const row: NewEntryRow = {
        id: newEntryId(),
        share_id: newEntryId(),
        venue_id: DEMO_BISTRO_ID,
        seq: 100 + i,
        status: 'active',
        priority: 0,
        party_size: 2,
        band: 0,
        name: `Diner Number${i}`,
        phone: `+55119${String(80000000 + i)}`,
        email: null,
        note: null,
        section: null,
        origin_label: 'Widget',
        lang: 'pt',
        created_at: t + i,
      };
      ids.push(row.id);
      await trx.insertInto('entries').values(row).execute();
    }
    for (let i = 0; i < HEADS; i++) {
      await trx
        .insertInto('entries')
        .values({
          id: newEntryId(),
          share_id: newEntryId(),
          venue_id: DEMO_BISTRO_ID,
          seq: 10 + i,
          status: 'active',
          priority: 0,
          party_size: 4,
          band: 1,
          name: `Head Party${i}`,
          phone: `+55119${String(70000000 + i)}`,
          email: null,
          note: null,
          section: null,
          origin_label: 'Host',
          lang: 'pt',
          created_at: t - 1000 + i,
        })
        .execute();
    }
    await trx
      .updateTable('venues')
      .set({ next_seq: 100 + N })
      .where('id', '=', DEMO_BISTRO_ID)
      .execute();
  });
  const head = await db.kysely.selectFrom('entries').select('id').where('seq', '<', 100).orderBy('seq').execute();
  await db.close();
  log(`queue of ${N + head.length} ready`);

  // Every stream comes from this machine's one address: the per-address cap is lifted (docs/security.md).
  const server = await start('realtime-server.ts', {
    DATABASE_URL: `file:${file}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    SSE_HEARTBEAT_SECONDS: '600',
    SSE_MAX_STREAMS_PER_ADDRESS: String(N * 2),
  });
  const { appPort } = server.hello as { appPort: number };
  log(`server up on :${appPort}`);
  const clients = (await start('realtime-clients.ts')).child;
  const api = `http://127.0.0.1:${appPort}/api`;
  try {
    const memory = async () => (await ask<{ memory: NodeJS.MemoryUsage }>(server.child, { cmd: 'memory' })).memory;
    const before = await memory();
    const t1 = Date.now();
    const connected = await ask<{ connected: number; failed: number }>(clients, {
      cmd: 'connect',
      port: appPort,
      paths: ids.map((id) => `/api/waitlists/${id}/events`),
      concurrency: 256,
    });
    const connectS = round((Date.now() - t1) / 1000, 1);
    if (connected.connected < N) throw new Error(`only ${connected.connected} of ${N} streams opened (${connected.failed} failed)`);
    const after = await memory();
    const perStream = {
      rssKB: round((after.rss - before.rss) / N / 1024, 1),
      heapKB: round((after.heapUsed + after.external - before.heapUsed - before.external) / N / 1024, 1),
    };
    log(`${N} streams open in ${connectS} s; ${perStream.rssKB} KB RSS per stream`);

    const login = await fetch(`${api}/host/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'host@bistro.example', password: 'demo1234' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    // The bare broadcast sends what a diner got (the last diner's position message).
    const payload = await (await fetch(`${api}/waitlists/${ids[N - 1]}/position`)).text();
    let seated = 0;
    const seat: Trigger = async () => {
      const res = await fetch(`${api}/host/venues/${DEMO_BISTRO_ID}/entries/${head[seated++]!.id}/seat`, {
        method: 'POST',
        headers: { cookie },
      });
      if (res.status !== 200) throw new Error(`seat answered ${res.status}`);
    };
    const run = await rounds(server.child, clients, [
      ...VARIANTS.map((v) => ({
        kind: v.name,
        trigger: async () => {
          await ask(server.child, { cmd: 'variant', fanout: v.fanout });
          return seat;
        },
      })),
      { kind: 'bare', trigger: async () => async () => void (await ask(server.child, { cmd: 'broadcast', payload })) },
      {
        kind: 'bareHttp',
        trigger: async () => async () => void (await ask(server.child, { cmd: 'broadcast', payload, through: 'response' })),
      },
    ]);
    await ask(server.child, { cmd: 'variant', fanout: VARIANTS[0]!.fanout });

    const app = run.median('app');
    const bare = run.median('bare');
    const bareHttp = run.median('bareHttp');
    const fanout = (kind: string) => run.of(kind).map((x) => x.fanoutP99);
    const cpu = (kind: string) => run.of(kind).map((x) => x.serverCpuMs);
    const pairsOf = (name: string, optimised: string, simpler: string) => [
      compare(name, 'fan-out p99 ms', fanout(optimised), fanout(simpler), 'lower'),
      compare(name, 'server CPU ms', cpu(optimised), cpu(simpler), 'lower'),
    ];
    const comparisons = [
      ...pairsOf('chunks straight to the socket vs res.write (both from templates)', 'app', 'response'),
      ...pairsOf('pre-framed templates vs JSON.stringify per diner (both chunks to the socket)', 'app', 'stringify'),
      ...pairsOf('both (as shipped) vs the plainest (JSON.stringify per diner, res.write)', 'app', 'plain'),
      ...pairsOf('bare: bytes straight to the socket vs res.write (no app)', 'bare', 'bareHttp'),
    ];
    const ratio = round(app.fanoutP99 / bare.fanoutP99, 2);
    const row = (label: string, i: number | string, x: Round, load: number) =>
      `| ${label} | ${i} | ${x.received} | ${x.p50} | ${x.p99} | ${x.fanoutP50} | ${x.fanoutP99} | ${x.serverCpuMs} | ${load} |`;
    const labels: Record<string, string> = {
      ...Object.fromEntries(VARIANTS.map((v) => [v.name, v.label])),
      bare: 'bare broadcast (bytes to each socket)',
      bareHttp: 'bare broadcast through res.write',
    };
    const markdown = [
      `${N} diner streams (SSE) on one venue, one server process (SQLite, in-process bus); clients on raw sockets in a second process. Opening them took ${connectS} s.`,
      `App: the host seats the party at the head, so every diner's position changes; latency from sending that request. Each app round writes the fan-out one way (the kept optimisations, or a simpler way switched on the same open streams). Bare: the same ${payload.length}-byte message written to the sockets of the same ${N} responses, nothing of the app in between. Every kind runs once per round, the order turning each round; round 0 is a warm-up.`,
      '',
      comparisonTable(comparisons),
      '',
      '| Run | round | received | p50 ms | p99 ms | fan-out p50 ms | fan-out p99 ms | server CPU ms | load 1 min |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...run.all.map((x) => row(labels[x.kind] ?? x.kind, x.round === 0 ? 'warm-up' : x.round, x.result, x.load1m)),
      '',
      `Median (by p99): app p50 ${app.p50} ms, p99 ${app.p99} ms end to end (fan-out p99 ${app.fanoutP99} ms, server CPU ${app.serverCpuMs} ms); bare p99 ${bare.p99} ms (fan-out p99 ${bare.fanoutP99} ms, server CPU ${bare.serverCpuMs} ms); bare through res.write fan-out p99 ${bareHttp.fanoutP99} ms.`,
      `Ratio app/bare, fan-out p99 (from the change in the server's hand to the last stream): ${ratio}; end to end: ${round(app.p99 / bare.p99, 2)}; server CPU: ${round(app.serverCpuMs / bare.serverCpuMs, 2)}. Against the bare broadcast through res.write: ${round(app.fanoutP99 / bareHttp.fanoutP99, 2)}.`,
      `Server memory per open stream: ${perStream.rssKB} KB RSS (${perStream.heapKB} KB heap + external).`,
      `Load average at the end: ${os
        .loadavg()
        .map((l) => round(l, 1))
        .join(', ')} on ${os.cpus().length} cores; other work on the machine slows whichever round it hits.`,
    ].join('\n');
    return {
      title: `Real-time fan-out: ${N} SSE diner streams, one change`,
      environment: {
        streams: N,
        rounds: ROUNDS,
        store: 'sqlite',
        bus: 'in-process',
        cpus: os.cpus().length,
        loadAverage1m: round(os.loadavg()[0] ?? 0, 1),
      },
      figures: {
        app,
        bare,
        bareHttp,
        rounds: run.all,
        comparisons,
        ratioFanoutP99: ratio,
        memoryPerStream: perStream,
        connectSeconds: connectS,
        payloadBytes: payload.length,
      },
      targets: [
        {
          name: 'p99 delivery latency, end to end (ms)',
          value: app.p99,
          target: '<= 250',
          met: app.p99 <= 250 && app.received === N,
        },
        { name: 'fan-out p99 vs bare broadcast (x)', value: ratio, target: '<= 1.5', met: ratio <= 1.5 },
        { name: 'server memory per stream (KB RSS)', value: perStream.rssKB, target: '<= 30', met: perStream.rssKB <= 30 },
      ],
      markdown,
    };
  } finally {
    clients.kill();
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.send({ cmd: 'stop' });
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    server.child.kill();
  }
}

// Standalone: node --import tsx bench/realtime.bench.ts
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const report = await run();
  const resultsDir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(
    path.join(resultsDir, 'realtime.json'),
    `${JSON.stringify({ name: 'realtime', ranAt: new Date().toISOString(), ...report }, null, 2)}\n`,
  );
  console.log(report.markdown);
  process.exit(0);
}
