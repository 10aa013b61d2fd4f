// Capacity: a realistic mix instead of one huge venue (bench/realtime.bench.ts). Many venues, most
// with a few parties waiting and a few with a long line (a Zipf spread of queue lengths), a diner
// stream (SSE) per waiting party with the page open, host consoles on the busiest venues, and
// joins, calls and seats through the real HTTP API, spread over venues in proportion to their
// queues. Measured per setup (docs/product.md §9, docs/deploy.md): one instance on SQLite, one on
// PostgreSQL, two on PostgreSQL + Redis behind nginx. For each change, the time from sending its
// request until EVERY screen of its venue (every diner stream and host console) has received it;
// the rate is raised in steps until p99 passes 250 ms; CPU and memory of every process involved.
// Targets: one instance holds the mix at 30 changes/s with p99 <= 250 ms; two instances hold at
// least 1.7x the change rate of one (on the same store, PostgreSQL). Instances are compared as
// instances of a fixed size where the machine allows (a cgroup CPU quota each, bench/lib/cpu-quota.ts):
// here PostgreSQL, nginx and the load generator share the same 2 cores, and without quotas one
// instance alone already keeps the machine busy. The unlimited setups, and round-robin (every
// instance refreshes every venue) against docs/deploy.md's venue `hash`, run beside them.
//
// This machine: 2 cores for everything (servers, nginx, PostgreSQL, Redis and the load generator),
// and at most 20,000 open files per process, hard: one server cannot hold 20,000 streams plus its
// other files, so a single instance serves as many of the pages as fit (the same queues, a few
// pages closed) and the screens are spread over several client processes.
//
// Scale by environment: CAPACITY_VENUES, CAPACITY_STREAMS, CAPACITY_HOSTS, CAPACITY_MAX_QUEUE,
// CAPACITY_SETUPS (default sqlite,pg,two,pg-quota,two-quota,two-quota-rr; also two-rr), CAPACITY_QUOTA
// (cores per instance in the -quota setups, 0.4), CAPACITY_STEP_SECONDS, CAPACITY_START_RATE, CAPACITY_MAX_RATE,
// CAPACITY_REFINE, CAPACITY_PG_URL, CAPACITY_REDIS_URL; CAPACITY_SERVER_NODE_ARGS (e.g. --cpu-prof) for the servers.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOST_SESSION_COOKIE } from '@vez/contract';
import { sql } from 'kysely';
import type { Config } from '../apps/server/src/config.js';
import { openDb } from '../apps/server/src/db/connect.js';
import { CapacityDriver, type DriverVenue, type StepResult } from './lib/capacity-driver.js';
import { evenlyKept, makeMix, rng } from './lib/capacity-mix.js';
import { type CapacityNginx, NGINX, freePort, startCapacityNginx } from './lib/capacity-nginx.js';
import { OPERATOR_EMAIL, OPERATOR_PASSWORD, seedCapacity } from './lib/capacity-seed.js';
import { cpuSecondsOf, cpuSecondsOfAll, machineCpu, openFileLimit, pidsByName, rssMbOf } from './lib/proc-stats.js';
import { cpuQuota, throttledOf } from './lib/cpu-quota.js';
import { type BenchReport, round } from './lib/report.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const VENUES = env('CAPACITY_VENUES', 2000);
const STREAMS = env('CAPACITY_STREAMS', 20_000);
const HOSTS = env('CAPACITY_HOSTS', 200);
const MAX_QUEUE = env('CAPACITY_MAX_QUEUE', 150);
const HEADS = env('CAPACITY_HEADS', 3);
const STEP_S = env('CAPACITY_STEP_SECONDS', 12);
const START_RATE = env('CAPACITY_START_RATE', 30);
const MAX_RATE = env('CAPACITY_MAX_RATE', 3840);
const REFINE = env('CAPACITY_REFINE', 3);
const P99_MS = env('CAPACITY_P99_MS', 250);
const SCREENS_PER_CLIENT = env('CAPACITY_SCREENS_PER_CLIENT', 4500);
const NGINX_WORKERS = env('CAPACITY_NGINX_WORKERS', 4);
const SETUPS = (process.env.CAPACITY_SETUPS ?? 'sqlite,pg,two,pg-quota,two-quota,two-quota-rr')
  .split(',')
  .map((s) => s.trim()) as SetupName[];
const PG_URL = process.env.CAPACITY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.CAPACITY_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Files a server needs besides its streams: store, log, pipes, the generator's keep-alive connections, nginx's upstream pool. */
const SERVER_FILES_RESERVE = 400;

type SetupName = 'sqlite' | 'pg' | 'two' | 'two-rr' | 'pg-quota' | 'two-quota' | 'two-quota-rr';
interface SetupSpec {
  label: string;
  instances: 1 | 2;
  store: 'sqlite' | 'pg';
  /** Behind nginx: a venue's streams on one instance (docs/deploy.md's `hash`), or round-robin. */
  balance?: 'venue' | 'round-robin';
  /** Each instance limited to CAPACITY_QUOTA of a core (bench/lib/cpu-quota.ts), as a container's CPU limit. */
  quota?: true;
}
/** The CPU each instance of the `-quota` setups may use, in cores. */
const QUOTA = env('CAPACITY_QUOTA', 0.4);
const SETUP_SPECS: Record<SetupName, SetupSpec> = {
  sqlite: { label: '1 instance, SQLite', instances: 1, store: 'sqlite' },
  pg: { label: '1 instance, PostgreSQL', instances: 1, store: 'pg' },
  two: { label: "2 instances, PostgreSQL + Redis, nginx (a venue's streams on one instance)", instances: 2, store: 'pg', balance: 'venue' },
  'two-rr': { label: '2 instances, PostgreSQL + Redis, nginx round-robin', instances: 2, store: 'pg', balance: 'round-robin' },
  'pg-quota': { label: `1 instance of ${QUOTA} core, PostgreSQL`, instances: 1, store: 'pg', quota: true },
  'two-quota': {
    label: `2 instances of ${QUOTA} core, PostgreSQL + Redis, nginx (a venue's streams on one instance)`,
    instances: 2,
    store: 'pg',
    balance: 'venue',
    quota: true,
  },
  'two-quota-rr': {
    label: `2 instances of ${QUOTA} core, PostgreSQL + Redis, nginx round-robin`,
    instances: 2,
    store: 'pg',
    balance: 'round-robin',
    quota: true,
  },
};
/** Whether this machine can set quotas, asked once and only when a quota setup runs. */
let quotaSupport: ReturnType<typeof cpuQuota> | undefined;
const quotas = () => (quotaSupport ??= cpuQuota());

const repoRoot = path.resolve(import.meta.dirname, '..');
const METRICS_TOKEN = `capacity-${randomBytes(12).toString('hex')}`;

/**
 * The event loop's delay since the last read, from the instance's own /metrics (prom-client's
 * default metrics reset it at each read, plugins/metrics.ts): how long work waited for the loop.
 */
async function loopDelay(port: number): Promise<{ maxMs: number; p99Ms: number }> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const read = (name: string) =>
      Number(/^(\S+)\s+(\S+)$/m.exec(text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2] ?? NaN);
    return {
      maxMs: round(read('vez_nodejs_eventloop_lag_max_seconds') * 1000, 1),
      p99Ms: round(read('vez_nodejs_eventloop_lag_p99_seconds') * 1000, 1),
    };
  } catch {
    return { maxMs: NaN, p99Ms: NaN };
  }
}
const log = (line: string) => process.stderr.write(`[capacity] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Server {
  port: number;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** The server as an operator starts it (apps/server/src/main.ts, not the demo), on a free loopback port. */
async function startServer(extra: Record<string, string>, quota?: number): Promise<Server> {
  const port = await freePort();
  const nodeArgs = (process.env.CAPACITY_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DEMO: '',
      DATABASE_SCHEMA: '',
      REDIS_URL: '',
      // One address makes every join, login and stream here: the limits per address are lifted
      // (docs/security.md), the rest of the configuration is the default.
      RATE_LIMIT_JOINS_PER_10_MIN: '100000000',
      RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000000',
      JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: '100000000',
      LOGIN_MAX_PER_ADDRESS_15_MIN: '100000',
      SSE_MAX_STREAMS_PER_ADDRESS: '1000000',
      // The run packs hours of calls into minutes: the hourly bound of staff sends per venue is lifted.
      STAFF_SENDS_PER_VENUE_PER_HOUR: '100000000',
      METRICS_TOKEN,
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Limited from its first instruction: the whole process, every thread.
  const release = quota ? quotas().limit(child.pid!, quota) : () => undefined;
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000);
  });
  const exited = new Promise<void>((r) =>
    child.once('exit', () => {
      release();
      r();
    }),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready in 60 s:\n${stderr}`);
    }
    await sleep(100);
  }
  return {
    port,
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(12_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

function startClient(): Promise<ChildProcess> {
  const child = fork(path.join(import.meta.dirname, 'lib', 'capacity-clients.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`capacity-clients.ts exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, message: object, key: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (answer: Record<string, unknown>) => {
      if (!(key in answer)) return;
      child.off('message', on);
      resolve(answer as T);
    };
    child.on('message', on);
    child.send(message);
  });
}

async function login(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/host/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: OPERATOR_EMAIL, password: OPERATOR_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${HOST_SESSION_COOKIE}=`));
  if (!cookie) throw new Error('login set no staff cookie');
  return cookie.split(';')[0]!.slice(HOST_SESSION_COOKIE.length + 1);
}

/** CPU use over a step, in % of one core, and memory at its end, of every process that matters. */
interface Resources {
  /** Per server instance: % of one core, RSS MB. */
  servers: { cpu: number; rssMb: number }[];
  nginxCpu: number | null;
  postgresCpu: number | null;
  redisCpu: number | null;
  /** The load generator: this process and the client processes. */
  generatorCpu: number;
  clientsCpu: number;
  /** The whole machine, % of its cores together (100 = both cores busy). */
  machineBusy: number;
  /** Over how long (the step and its drain). */
  seconds: number;
}

interface Probe {
  servers: number[];
  nginx: number[];
  postgres: number[];
  redis: number[];
  clients: number[];
}

function sampler(p: Probe) {
  const read = () => ({
    at: performance.now(),
    servers: p.servers.map((pid) => cpuSecondsOf(pid) ?? 0),
    nginx: cpuSecondsOfAll(p.nginx),
    postgres: cpuSecondsOfAll(p.postgres),
    redis: cpuSecondsOfAll(p.redis),
    clients: cpuSecondsOfAll(p.clients),
    self: process.cpuUsage(),
    machine: machineCpu(),
  });
  const before = read();
  return (): Resources => {
    const after = read();
    const s = (after.at - before.at) / 1000;
    const pct = (x: number) => round((x / s) * 100, 1);
    return {
      servers: p.servers.map((pid, i) => ({ cpu: pct(after.servers[i]! - before.servers[i]!), rssMb: round(rssMbOf(pid) ?? NaN) })),
      nginxCpu: p.nginx.length ? pct(after.nginx - before.nginx) : null,
      postgresCpu: p.postgres.length ? pct(after.postgres - before.postgres) : null,
      redisCpu: p.redis.length ? pct(after.redis - before.redis) : null,
      generatorCpu: pct((after.self.user + after.self.system - before.self.user - before.self.system) / 1e6),
      clientsCpu: pct(after.clients - before.clients),
      machineBusy: round(((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * 100, 1),
      seconds: round(s, 2),
    };
  };
}

interface Step extends StepResult {
  pass: boolean;
  why: string;
  resources: Resources;
  dropped: number;
  /** Per instance, over the step: the event loop's longest and p99 delay. */
  loop: { maxMs: number; p99Ms: number }[];
  /** When rounds of heartbeats (SSE_HEARTBEAT_SECONDS) reached the screens, s from the step's start. */
  heartbeats: number[];
  /** Quota setups, per instance: the share of CFS periods in which the quota ran out (%). */
  throttled?: number[];
}

interface SetupResult {
  name: SetupName;
  label: string;
  instances: number;
  /** Cores each instance may use; absent without a quota. */
  quota?: number;
  streams: number;
  streamsNote: string;
  hosts: number;
  connectSeconds: number;
  connectFailed: number;
  connectErrors: string[];
  clientProcesses: number;
  rssAfterConnectMb: number[];
  /** Over 3 s with every stream open and no change. */
  idle?: Resources;
  steps: Step[];
  /** The highest rate that passed (0: not even the first). */
  held: number;
  error?: string;
}

function verdict(s: StepResult, dropped: number): { pass: boolean; why: string } {
  const why: string[] = [];
  if (!(s.dueP99 <= P99_MS)) why.push(`p99 ${Number.isFinite(s.dueP99) ? `${s.dueP99} ms` : 'unbounded'} > ${P99_MS} ms`);
  if (s.errors > 0)
    why.push(
      `${s.errors} errors (${Object.entries(s.errorStatuses)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')})`,
    );
  if (s.timedOut > 0) why.push(`${s.timedOut} not delivered within 5 s`);
  if (s.unsent > 0) why.push(`${s.unsent} never sent (fell behind)`);
  if (dropped > 0) why.push(`${dropped} streams dropped`);
  return { pass: why.length === 0, why: why.join('; ') };
}

async function runSetup(name: SetupName, mix: ReturnType<typeof makeMix>): Promise<SetupResult> {
  const spec = SETUP_SPECS[name];
  const instances = spec.instances;
  // CAPACITY_FILE_LIMIT: a lower limit than the real one, to try the capped path at small scale.
  const fileLimit = Math.min(openFileLimit(), env('CAPACITY_FILE_LIMIT', Infinity));
  const totalHosts = mix.venues.reduce((a, v) => a + v.hosts, 0);
  const perServerRoom = fileLimit - SERVER_FILES_RESERVE - Math.ceil(totalHosts / instances);
  // Behind nginx the streams are shared by the instances; one instance must hold them all.
  const streams = Math.min(STREAMS, perServerRoom * instances);
  const streamsNote =
    streams < STREAMS
      ? `${streams} of ${STREAMS} pages open: one process may hold ${fileLimit} open files, less ${totalHosts} consoles and ~${SERVER_FILES_RESERVE} other files`
      : '';
  const result: SetupResult = {
    name,
    label: spec.label,
    instances,
    ...(spec.quota ? { quota: QUOTA } : {}),
    streams,
    streamsNote,
    hosts: totalHosts,
    connectSeconds: 0,
    connectFailed: 0,
    connectErrors: [],
    clientProcesses: 0,
    rssAfterConnectMb: [],
    steps: [],
    held: 0,
  };

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-capacity-'));
  const schema = `bench_capacity_${randomBytes(4).toString('hex')}`;
  const database: Config['database'] =
    spec.store === 'sqlite' ? { kind: 'sqlite', file: path.join(dir, 'vez.db') } : { kind: 'postgres', url: PG_URL, schema };
  const servers: Server[] = [];
  const clients: ChildProcess[] = [];
  let nginx: CapacityNginx | undefined;
  let driver: CapacityDriver | undefined;
  try {
    let t = Date.now();
    const seeded = await seedCapacity(database, mix, HEADS);
    log(
      `${name}: seeded ${seeded.length} venues, ${STREAMS} waiting parties with pages and ${HEADS} more at each head in ${round((Date.now() - t) / 1000, 1)} s`,
    );

    const serverEnv: Record<string, string> =
      spec.store === 'sqlite'
        ? { DATABASE_URL: `file:${database.kind === 'sqlite' ? database.file : ''}` }
        : { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, ...(instances > 1 ? { REDIS_URL, TRUST_PROXY: '1' } : {}) };
    for (let i = 0; i < instances; i++) servers.push(await startServer(serverEnv, spec.quota ? QUOTA : undefined));
    let port = servers[0]!.port;
    if (instances > 1) {
      nginx = await startCapacityNginx(
        servers.map((s) => `127.0.0.1:${s.port}`),
        NGINX_WORKERS,
        Math.min(fileLimit, 20_000),
        spec.balance ?? 'venue',
      );
      port = nginx.port;
    }
    const cookie = await login(port);

    // Screens: the pages that fit, spread evenly; whole venues to a client process, busiest first.
    const kept = evenlyKept(STREAMS, streams);
    let k = 0;
    const perVenue = seeded.map((v) => ({
      diners: v.streamed.filter(() => kept[k++]),
      hosts: v.consoleTokens,
    }));
    const screens = perVenue.reduce((a, v) => a + v.diners.length + v.hosts.length, 0);
    const clientCount = Math.max(1, Math.ceil(screens / SCREENS_PER_CLIENT));
    result.clientProcesses = clientCount;
    for (let i = 0; i < clientCount; i++) clients.push(await startClient());
    const load = Array.from({ length: clientCount }, () => 0);
    const assigned: { venue: number; path: string; cookie?: string }[][] = Array.from({ length: clientCount }, () => []);
    const clientOf: number[] = [];
    perVenue.forEach((v, index) => {
      const c = load.indexOf(Math.min(...load));
      clientOf[index] = c;
      load[c]! += v.diners.length + v.hosts.length;
      const id = seeded[index]!.id;
      // As the position page asks (use-position-stream.ts): the venue beside the language.
      for (const entry of v.diners) assigned[c]!.push({ venue: index, path: `/api/waitlists/${entry}/events?lng=pt&venue=${id}` });
      for (const token of v.hosts)
        assigned[c]!.push({ venue: index, path: `/api/host/venues/${id}/events`, cookie: `${HOST_SESSION_COOKIE}=${token}` });
    });
    // Opened in a shuffled order, as pages come: not one venue after the other.
    const shuffle = rng(7);
    for (const list of assigned)
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(shuffle() * (i + 1));
        [list[i], list[j]] = [list[j]!, list[i]!];
      }
    t = Date.now();
    const opened = await Promise.all(
      clients.map((c, i) =>
        ask<{ connected: number; failed: number; errors: string[] }>(
          c,
          { cmd: 'connect', port, streams: assigned[i], concurrency: 64 },
          'connected',
        ),
      ),
    );
    result.connectSeconds = round((Date.now() - t) / 1000, 1);
    result.connectFailed = opened.reduce((a, o) => a + o.failed, 0);
    result.connectErrors = [...new Set(opened.flatMap((o) => o.errors))];
    log(
      `${name}: ${screens - result.connectFailed} of ${screens} screens open in ${result.connectSeconds} s over ${clientCount} client processes${result.connectFailed ? ` (failed: ${result.connectErrors.join('; ')})` : ''}`,
    );
    await sleep(1000);
    result.rssAfterConnectMb = servers.map((s) => round(rssMbOf(s.child.pid) ?? NaN));

    const venues: DriverVenue[] = seeded.map((v, index) => ({
      id: v.id,
      index,
      weight: mix.venues[index]!.streams + HEADS,
      client: clients[clientOf[index]!]!,
      waiting: [...v.heads],
      called: [...v.called],
    }));
    driver = new CapacityDriver(port, cookie, venues, clients, rng(42));
    const probe: Probe = {
      servers: servers.map((s) => s.child.pid!),
      nginx: nginx ? [nginx.pid, ...nginx.workers()] : [],
      postgres: spec.store === 'sqlite' ? [] : pidsByName((c) => c === 'postgres' || c.startsWith('postgres:')),
      redis: instances > 1 ? pidsByName((c) => c.startsWith('redis-server')) : [],
      clients: clients.map((c) => c.pid!),
    };
    const stats = async () =>
      (
        await Promise.all(clients.map((c) => ask<{ stats: { dropped: number; heartbeatRounds: number[] } }>(c, { cmd: 'stats' }, 'stats')))
      ).map((s) => s.stats);
    const droppedSoFar = async () => (await stats()).reduce((a, s) => a + s.dropped, 0);

    // Every stream open, no change: what holding them costs (heartbeats, the message worker's polls).
    const idle = sampler(probe);
    await sleep(3000);
    result.idle = idle();
    // Warm-up (not counted): JIT, pools, caches.
    // Instances under a quota start lower, so the rate one of them holds is found, not only passed.
    const startRate = spec.quota ? Math.max(1, Math.round(START_RATE / 2)) : START_RATE;
    await driver.step(startRate, 3);
    await driver.settle();
    let dropped = await droppedSoFar();

    const runStep = async (rate: number): Promise<Step> => {
      await sleep(1000);
      await Promise.all(servers.map((x) => loopDelay(x.port)));
      const sample = sampler(probe);
      const throttledBefore = servers.map((x) => throttledOf(x.child.pid!));
      const s = await driver!.step(rate, STEP_S);
      const resources = sample();
      const throttled = spec.quota
        ? servers.map((x, i) => {
            const [a, b] = [throttledBefore[i], throttledOf(x.child.pid!)];
            return a && b && b.periods > a.periods ? round(((b.throttled - a.throttled) / (b.periods - a.periods)) * 100, 1) : NaN;
          })
        : undefined;
      const loop = await Promise.all(servers.map((x) => loopDelay(x.port)));
      await driver!.settle();
      const now = await stats();
      const droppedNow = now.reduce((a, x) => a + x.dropped, 0);
      // When the server's heartbeat rounds reached the screens during the step (s from its start).
      const heartbeats = [...new Set(now.flatMap((x) => x.heartbeatRounds).map((t) => round((t - s.startedAt) / 1000, 1)))]
        .filter((t) => t >= 0 && t <= STEP_S + 1)
        .sort((a, b) => a - b);
      const v = verdict(s, droppedNow - dropped);
      dropped = droppedNow;
      const step: Step = { ...s, ...v, resources, dropped: droppedNow, loop, heartbeats, ...(throttled ? { throttled } : {}) };
      result.steps.push(step);
      log(
        `${name} ${rate}/s: ${v.pass ? 'pass' : `FAIL (${v.why})`}; p50 ${s.dueP50} ms, p99 ${s.dueP99} ms (from send ${s.sendP99}), answers p99 ${s.answerP99} ms, ${s.completed} changes; servers ${resources.servers.map((x) => `${x.cpu}% ${x.rssMb} MB`).join(', ')}; event loop max ${loop.map((x) => `${x.maxMs} ms`).join(', ')};${throttled ? ` quota ran out in ${throttled.map((x) => `${x}%`).join(', ')} of periods;` : ''} machine ${resources.machineBusy}%; heartbeat rounds at ${heartbeats.join(', ')} s; slowest ${JSON.stringify(s.slowest.slice(0, 4))}`,
      );
      return step;
    };

    let rate = startRate;
    let failedAt = 0;
    for (;;) {
      const step = await runStep(rate);
      if (!step.pass) {
        failedAt = rate;
        break;
      }
      result.held = rate;
      if (rate * 2 > MAX_RATE) break;
      rate *= 2;
    }
    // Between the last rate held and the first that failed, a few more steps (geometric middles).
    for (let i = 0; i < REFINE && failedAt > 0 && result.held > 0; i++) {
      const middle = Math.round(Math.sqrt(result.held * failedAt));
      if (middle <= result.held || middle >= failedAt) break;
      const step = await runStep(middle);
      if (step.pass) result.held = middle;
      else failedAt = middle;
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message.split('\n').slice(0, 4).join(' ') : String(error);
    log(`${name} failed: ${result.error}`);
  } finally {
    driver?.close();
    await Promise.all(clients.map((c) => Promise.race([ask(c, { cmd: 'close' }, 'closed'), sleep(3000)])));
    for (const c of clients) c.kill();
    const nginxErrors = nginx ? await nginx.errors() : '';
    if (/\[(alert|crit|emerg)\]/.test(nginxErrors))
      log(
        `nginx: ${nginxErrors
          .split('\n')
          .filter((l) => /alert|crit|emerg/.test(l))
          .slice(0, 3)
          .join(' | ')}`,
      );
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    for (const s of servers) if (/error|Error/.test(s.stderr())) log(`server stderr: ${s.stderr().slice(-600)}`);
    if (database.kind === 'postgres') {
      const db = openDb(database);
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely).catch(() => undefined);
      await db.close();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** Schemas a killed earlier run left behind. */
async function dropLeftovers(): Promise<void> {
  const db = openDb({ kind: 'postgres', url: PG_URL });
  try {
    const { rows } = await sql<{ nspname: string }>`select nspname from pg_namespace where nspname like 'bench_capacity_%'`.execute(
      db.kysely,
    );
    for (const { nspname } of rows) await sql`drop schema if exists ${sql.id(nspname)} cascade`.execute(db.kysely);
  } finally {
    await db.close();
  }
}

const fmt = (x: number | null | undefined, unit = '') => (x === null || x === undefined || !Number.isFinite(x) ? '—' : `${x}${unit}`);

export default async function run(): Promise<BenchReport> {
  const mix = makeMix({ venues: VENUES, streams: STREAMS, hosts: HOSTS, maxQueue: MAX_QUEUE, heads: HEADS });
  const mixFigures = mixFiguresOf(mix);
  log(`mix: ${JSON.stringify(mixFigures)}`);
  for (const name of SETUPS)
    if (!SETUP_SPECS[name]) throw new Error(`CAPACITY_SETUPS: no setup ${name} (${Object.keys(SETUP_SPECS).join(', ')})`);
  if (SETUPS.some((s) => SETUP_SPECS[s].instances > 1) && !fs.existsSync(NGINX))
    throw new Error(`${NGINX} is missing (apt-get install nginx)`);
  if (SETUPS.some((s) => SETUP_SPECS[s].store === 'pg')) await dropLeftovers();

  const results: SetupResult[] = [];
  for (const name of SETUPS) {
    if (SETUP_SPECS[name].quota && quotas().unavailable) {
      log(`${name}: left out: ${quotas().unavailable}`);
      continue;
    }
    results.push(await runSetup(name, mix));
  }
  const { targets, markdown, ratio } = render(mixFigures, results);

  return {
    title: `Capacity: ${VENUES} venues, ${STREAMS} diner streams, ${HOSTS} consoles; the change rate each setup holds at p99 <= ${P99_MS} ms`,
    environment: {
      venues: VENUES,
      streams: STREAMS,
      hosts: HOSTS,
      maxQueue: MAX_QUEUE,
      stepSeconds: STEP_S,
      setups: SETUPS.join(','),
      cpus: os.cpus().length,
      openFileLimit: openFileLimit(),
      loadAverage1m: round(os.loadavg()[0] ?? 0, 1),
    },
    figures: { mix: mixFigures, setups: results, ratioTwoToOne: ratio ?? null },
    targets,
    markdown,
  };
}

type MixFigures = ReturnType<typeof mixFiguresOf>;

function mixFiguresOf(mix: ReturnType<typeof makeMix>) {
  const lengths = mix.venues.map((v) => v.streams);
  const sorted = [...lengths].sort((a, b) => a - b);
  return {
    venues: VENUES,
    streams: STREAMS,
    hosts: HOSTS,
    headsPerVenue: HEADS,
    zipfExponent: round(mix.exponent, 3),
    busiest: lengths[0]!,
    tenth: lengths[Math.min(9, lengths.length - 1)]!,
    hundredth: lengths[Math.min(99, lengths.length - 1)]!,
    median: sorted[Math.floor(sorted.length / 2)]!,
    smallest: sorted[0]!,
    venuesWithConsoles: mix.venues.filter((v) => v.hosts > 0).length,
    /** Diner messages per change, on average over changes (weighted as the changes are). */
    dinerMessagesPerChange: round(lengths.reduce((a, n) => a + n * (n + HEADS), 0) / lengths.reduce((a, n) => a + n + HEADS, 0), 1),
  };
}

/**
 * Every SSE_HEARTBEAT_SECONDS (20 s) the server writes a comment to every open stream in one loop
 * (apps/server/src/modules/realtime/realtime.service.ts): with ~20,000 streams on one instance that
 * loop holds the event loop, and changes made meanwhile wait. Which steps had such a round in them,
 * and how they fared against those that did not.
 */
function heartbeatNote(results: SetupResult[]): string {
  const steps = results.flatMap((r) => r.steps.map((s) => ({ r, s })));
  const withRound = steps.filter((x) => x.s.heartbeats.length > 0);
  const without = steps.filter((x) => x.s.heartbeats.length === 0);
  const describe = (xs: typeof steps) =>
    xs.length === 0
      ? 'none'
      : xs
          .map(
            ({ r, s }) =>
              `${r.name} ${s.rate}/s ${s.pass ? 'pass' : 'fail'} (p99 ${fmt(s.dueP99)} ms, event loop max ${s.loop.map((l) => fmt(l.maxMs)).join('/')} ms${s.heartbeats.length ? `, slowest changes at ${[...new Set(s.slowest.slice(0, 4).map((c) => c.atS))].join(', ')} s` : ''})`,
          )
          .join('; ');
  return [
    `Heartbeats: every ${process.env.SSE_HEARTBEAT_SECONDS ?? 20} s each instance writes a comment to every open stream in one loop (realtime.service.ts). Steps with such a round in them: ${describe(withRound)}.`,
    `Steps without one: ${describe(without)}.`,
  ].join(' ');
}

/** The report's targets and text from the figures (also re-rendered from a stored run: --render). */
function render(
  mixFigures: MixFigures,
  results: SetupResult[],
): { targets: BenchReport['targets']; markdown: string; ratio: number | undefined } {
  const at = (r: SetupResult, rate: number) => r.steps.find((s) => s.rate === rate);
  // All instances together, per change sent (CPU over the step and its drain).
  const cpuPerChange = (s: Step) =>
    s.achievedRate > 0
      ? round((s.resources.servers.reduce((a, x) => a + x.cpu, 0) * 10 * s.resources.seconds) / (s.achievedRate * s.seconds), 1)
      : '—';
  // What the machine did besides this benchmark's processes (other work sharing the cores).
  const others = (s: Step) => {
    const x = s.resources;
    const mine =
      x.servers.reduce((a, v) => a + v.cpu, 0) +
      (x.nginxCpu ?? 0) +
      (x.postgresCpu ?? 0) +
      (x.redisCpu ?? 0) +
      x.generatorCpu +
      x.clientsCpu;
    return round(Math.max(0, x.machineBusy * os.cpus().length - mine));
  };
  const cpuCell = (s: Step | undefined) => (s ? s.resources.servers.map((x) => `${x.cpu}%`).join(' + ') : '—');
  const rssCell = (s: Step | undefined) => (s ? s.resources.servers.map((x) => `${x.rssMb} MB`).join(' + ') : '—');
  const first = (r: SetupResult) => at(r, START_RATE);
  const capacityTable = [
    `| Setup | streams | hosts | change rate held at p99 <= ${P99_MS} ms | p50 / p99 at ${START_RATE}/s | CPU per instance (% of a core) at ${START_RATE}/s; at the rate held | RSS per instance at ${START_RATE}/s; at the rate held |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => {
      const s = first(r);
      const h = r.held > 0 ? at(r, r.held) : undefined;
      return `| ${r.label} | ${r.streams - r.connectFailed} | ${r.hosts} | ${r.error ? `failed: ${r.error}` : r.held > 0 ? `${r.held}/s` : `none (${START_RATE}/s failed)`} | ${s ? `${fmt(s.dueP50)} / ${fmt(s.dueP99)} ms` : '—'} | ${cpuCell(s)}; ${cpuCell(h)} | ${rssCell(s)}; ${rssCell(h)} |`;
    }),
  ].join('\n');
  const stepTable = (r: SetupResult) =>
    [
      `**${r.label}**: ${r.streams - r.connectFailed} diner streams${r.streamsNote ? ` (${r.streamsNote})` : ''} and ${r.hosts} consoles, opened in ${r.connectSeconds} s by ${r.clientProcesses} client processes${r.connectFailed ? `; ${r.connectFailed} failed to open (${r.connectErrors.join('; ')})` : ''}. Server RSS with every stream open, before any change: ${r.rssAfterConnectMb.map((x) => `${x} MB`).join(' + ')}; server CPU with them open and no change: ${r.idle ? r.idle.servers.map((x) => `${x.cpu}%`).join(' + ') : '—'} of a core.`,
      '',
      '| rate/s | sent/s | join/call/seat | p50 ms | p99 ms | max ms | p99 from send ms | answer p50/p99 ms | waited for venue | generator lag p99 ms | heartbeat round at (s into the step) | server event loop delay max ms | server CPU % | server CPU ms per change | server RSS MB | nginx % | PostgreSQL % | Redis % | generator % (driver + clients) | machine % (all cores) | other work on the machine (% of a core) | verdict |',
      '|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---|---|---|---:|---|---:|---:|---:|---|---:|---:|---|',
      ...r.steps.map(
        (s) =>
          `| ${s.rate} | ${s.achievedRate} | ${s.byKind.join}/${s.byKind.call}/${s.byKind.seat} | ${fmt(s.dueP50)} | ${fmt(s.dueP99)} | ${fmt(s.dueMax)} | ${fmt(s.sendP99)} | ${fmt(s.answerP50)} / ${fmt(s.answerP99)} | ${s.waited} | ${fmt(s.lagP99)} | ${s.heartbeats.length ? s.heartbeats.join(', ') : '—'} | ${s.loop.map((x) => fmt(x.maxMs)).join(' + ')} | ${s.resources.servers.map((x) => x.cpu).join(' + ')} | ${cpuPerChange(s)} | ${s.resources.servers.map((x) => x.rssMb).join(' + ')} | ${fmt(s.resources.nginxCpu)} | ${fmt(s.resources.postgresCpu)} | ${fmt(s.resources.redisCpu)} | ${s.resources.generatorCpu} + ${s.resources.clientsCpu} | ${s.resources.machineBusy} | ${others(s)} | ${s.pass ? 'pass' : `fail: ${s.why}`} |`,
      ),
    ].join('\n');

  const named = (n: SetupName) => results.find((r) => r.name === n);
  // Instances of a fixed size when the machine can give them one (a cgroup quota each); else as they come.
  const quotaPair = named('pg-quota') && named('two-quota');
  const one = quotaPair ? named('pg-quota') : named('pg');
  const two = quotaPair ? named('two-quota') : named('two');
  const singles = results.filter((r) => r.instances === 1 && r.quota === undefined);
  const targets: BenchReport['targets'] = [];
  for (const r of singles) {
    const s = first(r);
    targets.push({
      name: `${r.label} holds the mix at ${START_RATE} changes/s: p99 to every screen (ms)`,
      value: s ? s.dueP99 : NaN,
      target: `<= ${P99_MS}, no change lost`,
      met: !!s?.pass && START_RATE === 30 && P99_MS <= 250,
    });
  }
  let ratio: number | undefined;
  if (one && two) {
    // One instance that holds no rate gives no ratio: nothing is claimed.
    ratio = one.held > 0 ? round(two.held / one.held, 2) : NaN;
    targets.push({
      name: `two instances hold this many times the change rate of one (both PostgreSQL${quotaPair ? `, ${QUOTA} core each` : ''})`,
      value: ratio,
      target: '>= 1.7',
      met: Number.isFinite(ratio) && ratio >= 1.7 && !one.error && !two.error,
    });
  }
  const verdicts = targets.map((t) => `- ${t.met ? 'MET' : '**NOT MET**'}: ${t.name}: ${fmt(t.value)} (target ${t.target}).`);
  // The other pairs, as figures: what the whole machine gives, and what round-robin costs.
  const ratioOf = (a: SetupResult | undefined, b: SetupResult | undefined) =>
    a && b && a.held > 0 ? round(b.held / a.held, 2) : undefined;
  const machineBusyAt = (r: SetupResult | undefined) => (r && r.held > 0 ? at(r, r.held)?.resources.machineBusy : undefined);
  const figures = [
    quotaPair && named('pg') && named('two')
      ? `- Without quotas, on this whole machine (not a target: the instances share ${os.cpus().length} cores with PostgreSQL, nginx and the load generator): two instances hold ${fmt(ratioOf(named('pg'), named('two')))}x the rate of one; the machine was ${fmt(machineBusyAt(named('pg')), '%')} busy at the rate one held, ${fmt(machineBusyAt(named('two')), '%')} at the rate two held.`
      : '',
    ...(
      [
        ['two', 'two-rr'],
        ['two-quota', 'two-quota-rr'],
      ] as const
    ).map(([hash, rr]) =>
      named(hash) && named(rr)
        ? `- A venue's streams on one instance (docs/deploy.md's \`hash\`) against round-robin: ${named(hash)!.label.split(',')[0]}: ${named(hash)!.held}/s against ${named(rr)!.held}/s held.`
        : '',
    ),
  ].filter(Boolean);
  const markdown = [
    `${VENUES} venues, ${STREAMS} waiting parties with the position page open (a diner stream each: GET /api/waitlists/{id}/events), ${mixFigures.venuesWithConsoles} venues with ${HOSTS} host consoles open (the staff venue stream, logged in), and ${HEADS} more parties at the head of each queue without a page (the first already called, on its way: the host seats it and calls the others first).`,
    `Queue lengths follow a Zipf law (rank i: ${MAX_QUEUE}/i^${mixFigures.zipfExponent}): busiest ${mixFigures.busiest} pages, 10th ${mixFigures.tenth}, 100th ${mixFigures.hundredth}, median ${mixFigures.median}, smallest ${mixFigures.smallest}. Changes (join, call, seat in turn at each venue; joins by the diner's HTTP join, calls and seats by a logged-in host) fall on venues in proportion to their queues as a Poisson stream; a change reaches ${mixFigures.dinerMessagesPerChange} diner pages on average, plus the venue's consoles.`,
    `Latency: from the moment a change falls due until the LAST screen of its venue (every diner stream and console) has received it. Changes at one venue go one after the other (so no earlier refresh passes for a later change); a change due while its venue's previous one is on its way waits, and that wait counts ("p99 from send" leaves it out). Each rate runs ${STEP_S} s (Poisson arrivals) after a warm-up; a step passes with p99 <= ${P99_MS} ms and no change failed, timed out (5 s) or left unsent, and no stream dropped. Rates double from ${START_RATE}/s (instances under a quota from ${Math.max(1, Math.round(START_RATE / 2))}/s) until one fails, then ${REFINE} steps between the last held and the first failed.`,
    `Setups: every server is apps/server/src/main.ts as an operator starts it (NODE_ENV=production, limits per address lifted: one address makes all the traffic). Two instances: PostgreSQL + Redis behind nginx (${NGINX_WORKERS} workers, reuseport, the proxy settings of docs/deploy.md); screens and changes go through nginx. With docs/deploy.md's \`hash\`, all of a venue's screens are on one instance and changes go to either (a change made on one instance reaches screens on the other through Redis); round-robin spreads the screens too, so every instance refreshes every venue. Quota setups: each instance in a cgroup of its own with ${QUOTA} of a core (CFS quota over 10 ms periods), as a container's CPU limit sizes an instance; PostgreSQL, nginx, Redis and the generator run without one.`,
    '',
    '### Capacity table',
    '',
    capacityTable,
    '',
    ...verdicts,
    ...figures,
    '',
    ...results.flatMap((r) => [stepTable(r), '']),
    heartbeatNote(results),
    '',
    `The machine: ${os.cpus().length} cores shared by everything: the server instances, nginx, PostgreSQL, Redis and the load generator (this process sending the changes, and ${Math.max(...results.map((r) => r.clientProcesses))} client processes holding the screens and parsing every message). The generator's own CPU is in the tables; whatever it uses, the servers do not get, so these figures are a floor for a machine where clients are elsewhere. PostgreSQL's CPU counts all its processes, whoever uses them. At most ${openFileLimit()} open files per process (hard): a single instance holds the streams that fit beside its other files (the same queues; the other pages counted as closed), and the screens are spread over client processes of ≤${SCREENS_PER_CLIENT} sockets each.`,
  ].join('\n');
  return { targets, markdown, ratio };
}

// Standalone: node --import tsx bench/capacity.bench.ts
// --render: the text and targets of bench/results/capacity.json again from its figures (no run).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename) && process.argv.includes('--render')) {
  const file = path.join(import.meta.dirname, 'results', 'capacity.json');
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchReport & { figures: { mix: MixFigures; setups: SetupResult[] } };
  const { targets, markdown } = render(stored.figures.mix, stored.figures.setups);
  fs.writeFileSync(file, `${JSON.stringify({ ...stored, targets, markdown }, null, 2)}\n`);
  console.log(markdown);
  process.exit(0);
}
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const report = await run();
  const resultsDir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(
    path.join(resultsDir, 'capacity.json'),
    `${JSON.stringify({ name: 'capacity', ranAt: new Date().toISOString(), ...report }, null, 2)}\n`,
  );
  console.log(report.markdown);
  process.exit(0);
}
