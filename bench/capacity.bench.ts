// Capacity: what one change costs the servers, what holding a stream costs, and the change rate
// one and two instances hold, measured on a realistic mix (not one huge venue: bench/realtime.bench.ts).
// Many venues, most with a few parties waiting and a few with a long line (a Zipf spread of queue
// lengths), a diner stream (SSE) per waiting party with the page open, host consoles on the busiest
// venues, and joins, calls and seats through the real HTTP API, spread over venues in proportion to
// their queues. docs/deploy.md "Capacity" is the operator's plan built from these figures;
// docs/decisions/036-capacity-by-cpu-accounting.md says why the bench measures this way.
//
// Per setup, in one run and on the same screens:
//   1. the bare reference: every stream open and no change, over one heartbeat period (each stream
//      gets one heartbeat): the CPU and memory an instance spends only holding its streams;
//   2. the accounting: CAPACITY_REPEATS steps at the fixed rate CAPACITY_RATE (30 changes/s), each
//      after a step of bare requests (`GET /api/health/live`) at that rate, net of the reference:
//      what this machine charges any request at that rate (printed beside a change's cost); the steps
//      each counted from /proc (CPU of every server, PostgreSQL, Redis, nginx), from the clients
//      (stream writes that reached a screen), from the instances' /metrics (bus events published)
//      and from Redis INFO and PostgreSQL's WAL position: server CPU per change answered, net of
//      the reference, per instance; printed as median (min–max) over the repeats; with several
//      instances, each step is followed by one at CAPACITY_RATE x instances, where each instance
//      carries about what one carries at CAPACITY_RATE (docs/decisions/067-scale-out-at-the-same-load.md);
//   3. the model: the sustainable rate = (usable cores − the reference's cores) / CPU per change,
//      usable = CAPACITY_HEADROOM of a core per instance (of its quota in the -quota setups), for the
//      busiest instance; then steps around that prediction (x1.25 up or x0.8 down, one middle) find
//      the rate held (p99 <= 250 ms from due to the last message a screen got, nothing lost), and the prediction is
//      checked against it: again with the CPU per change measured in the search's first step (at
//      the first prediction; a change costs less when many come together), the one judged.
// Scale-out is judged by the accounting (does a second instance take half the work, each instance
// as loaded as the one it is compared with; what the venue hash saves against round-robin, in CPU
// per change) and confirmed by the rates held.
// Targets: server CPU per change at 30/s <= 2 ms (SQLite), <= 3 ms (PostgreSQL); one instance holds
// >= 3x the rate of the committed bench/results/capacity.json of the same setup (another day's run);
// two instances do >= 1.7x the work of one by CPU accounting in every repeat (one at CAPACITY_RATE,
// two at twice it); predictions within 25 %.
//
// This machine: 2 cores for everything (servers, nginx, PostgreSQL, Redis and the load generator),
// and at most 20,000 open files per process, hard: one server cannot hold 20,000 streams plus its
// other files, so a single instance serves as many of the pages as fit (the same queues, a few
// pages closed) and the screens are spread over several client processes.
//
// Environment (full scale by default, about 45 minutes; small for development, e.g.
// CAPACITY_VENUES=200 CAPACITY_STREAMS=2000 CAPACITY_HOSTS=20 CAPACITY_REPEATS=2
// SSE_HEARTBEAT_SECONDS=8 CAPACITY_SETUPS=sqlite,pg-quota,two-quota, about 5 minutes):
//   CAPACITY_VENUES (2000), CAPACITY_STREAMS (20000 open position pages), CAPACITY_HOSTS (200 consoles),
//   CAPACITY_MAX_QUEUE (150, the busiest venue's pages), CAPACITY_HEADS (3 waiting parties without a page),
//   CAPACITY_SETUPS (sqlite,sqlite-kept-briefly,sqlite-node-defaults,sqlite-v8-pool-4,sqlite-whole-indexes,pg,pg-quota,two-quota,two-quota-rr;
//   also two, two-rr: unlimited pairs; sqlite-kept-briefly, sqlite-node-defaults, sqlite-v8-pool-4,
//   sqlite-whole-indexes, sqlite-checkpoints-in-commits, sqlite- and pg-outbox-each-round, sqlite- and pg-pages-each-change,
//   pg-unnamed-statements are
//   one instance with a kept optimisation swapped for its simpler way,
//   bench/lib/capacity-server.ts, compared by CPU per change, event loop and p99 (the checkpoints and
//   the V8 pool by the rate held too); pg-quota-redis: pg-quota with the Redis bus, what the bus
//   costs one instance (docs/decisions/073-wakes-counted.md),
//   CAPACITY_RATE (30, changes/s of the accounting steps), CAPACITY_REPEATS (3),
//   CAPACITY_STEP_SECONDS and CAPACITY_IDLE_SECONDS (default SSE_HEARTBEAT_SECONDS, 20: each window
//   holds one heartbeat round, which the servers also read from SSE_HEARTBEAT_SECONDS),
//   CAPACITY_WARMUP_SECONDS (default 60, or CAPACITY_STEP_SECONDS when longer: changes at CAPACITY_RATE
//   before anything counts, after one change at every venue; V8 is still optimising the change path's
//   code for about a minute, see docs/decisions/036-capacity-by-cpu-accounting.md, and a venue's first
//   change reads what a running server keeps, 067-scale-out-at-the-same-load.md),
//   CAPACITY_HEADROOM (0.8 of a core planned per instance), CAPACITY_QUOTA (0.4 core per instance in
//   the -quota setups), CAPACITY_HELD_STEPS (5, steps of the search for the rate held), CAPACITY_P99_MS (250),
//   CAPACITY_BASELINE (a capacity.json to compare with; default: bench/baselines/capacity-2026-11-25.json),
//   CAPACITY_PG_URL, CAPACITY_REDIS_URL, CAPACITY_SERVER_NODE_ARGS (e.g. --cpu-prof, --trace-gc) for
//   the servers, after the flags `npm run serve` passes (lib/v8-flags.ts), CAPACITY_STDOUT_DIR (each
//   server's standard output, e.g. --trace-gc's lines, to out-<port>.log there; else dropped),
//   CAPACITY_FILE_LIMIT (a lower open-file limit, to try the capped path at small scale),
//   CAPACITY_SCREENS_PER_CLIENT (4500 sockets per client process), CAPACITY_NGINX_WORKERS (4).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOST_SESSION_COOKIE } from '@vez/contract';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Config } from '../apps/server/src/config.js';
import { openDb } from '../apps/server/src/db/connect.js';
import { SERVER_NODE_FLAGS } from '../apps/server/src/lib/v8-flags.js';
import { CapacityDriver, type DriverVenue, type StepResult } from './lib/capacity-driver.js';
import { evenlyKept, makeMix, rng, shuffleInPlace } from './lib/capacity-mix.js';
import { type CapacityNginx, NGINX, freePort, startCapacityNginx } from './lib/capacity-nginx.js';
import { OPERATOR_EMAIL, OPERATOR_PASSWORD, seedCapacity } from './lib/capacity-seed.js';
import { cpuSecondsOf, cpuSecondsOfAll, machineCpu, openFileLimit, pidsByName, rssMbOf, wakesOf } from './lib/proc-stats.js';
import { cpuQuota, throttledOf } from './lib/cpu-quota.js';
import { type BenchReport, round } from './lib/report.js';
import type { CapacityVariant } from './lib/capacity-server.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const VENUES = env('CAPACITY_VENUES', 2000);
const STREAMS = env('CAPACITY_STREAMS', 20_000);
const HOSTS = env('CAPACITY_HOSTS', 200);
const MAX_QUEUE = env('CAPACITY_MAX_QUEUE', 150);
const HEADS = env('CAPACITY_HEADS', 3);
const HEARTBEAT_S = env('SSE_HEARTBEAT_SECONDS', 20);
const STEP_S = env('CAPACITY_STEP_SECONDS', HEARTBEAT_S);
const IDLE_S = env('CAPACITY_IDLE_SECONDS', HEARTBEAT_S);
const RATE = env('CAPACITY_RATE', 30);
const WARMUP_S = env('CAPACITY_WARMUP_SECONDS', Math.max(60, STEP_S));
const REPEATS = Math.max(1, env('CAPACITY_REPEATS', 3));
const HEADROOM = env('CAPACITY_HEADROOM', 0.8);
const HELD_STEPS = env('CAPACITY_HELD_STEPS', 5);
const P99_MS = env('CAPACITY_P99_MS', 250);
const SCREENS_PER_CLIENT = env('CAPACITY_SCREENS_PER_CLIENT', 4500);
const NGINX_WORKERS = env('CAPACITY_NGINX_WORKERS', 4);
const SETUPS = (
  process.env.CAPACITY_SETUPS ??
  'sqlite,sqlite-kept-briefly,sqlite-node-defaults,sqlite-v8-pool-4,sqlite-whole-indexes,pg,pg-quota,two-quota,two-quota-rr'
)
  .split(',')
  .map((s) => s.trim()) as SetupName[];
const PG_URL = process.env.CAPACITY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.CAPACITY_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Files a server needs besides its streams: store, log, pipes, the generator's keep-alive connections, nginx's upstream pool. */
const SERVER_FILES_RESERVE = 400;

type SetupName =
  | 'sqlite'
  | 'pg'
  | 'two'
  | 'two-rr'
  | 'pg-quota'
  | 'pg-quota-redis'
  | 'two-quota'
  | 'two-quota-rr'
  | 'sqlite-kept-briefly'
  | 'sqlite-checkpoints-in-commits'
  | 'sqlite-node-defaults'
  | 'sqlite-v8-pool-4'
  | 'sqlite-whole-indexes'
  | 'sqlite-outbox-each-round'
  | 'sqlite-pages-each-change'
  | 'pg-pages-each-change'
  | 'pg-outbox-each-round'
  | 'pg-unnamed-statements';
interface SetupSpec {
  label: string;
  instances: 1 | 2;
  store: 'sqlite' | 'pg';
  /** Behind nginx: a venue's streams on one instance (docs/deploy.md's `hash`), or round-robin. */
  balance?: 'venue' | 'round-robin';
  /** Each instance limited to CAPACITY_QUOTA of a core (bench/lib/cpu-quota.ts), as a container's CPU limit. */
  quota?: true;
  /** A kept optimisation swapped for its simpler way (bench/lib/capacity-server.ts), to compare in the same run. */
  variant?: CapacityVariant;
  /** A variant whose rate held is compared too (it changes latency, not only CPU). */
  searchHeld?: true;
  /** One instance with the Redis bus (what the bus costs an instance, beside the same without it). */
  redis?: true;
}
/** The CPU each instance of the `-quota` setups may use, in cores. */
const QUOTA = env('CAPACITY_QUOTA', 0.4);
const SETUP_SPECS: Record<SetupName, SetupSpec> = {
  sqlite: { label: '1 instance, SQLite', instances: 1, store: 'sqlite' },
  'sqlite-kept-briefly': {
    label: '1 instance, SQLite, venues and books kept 2 s only (not while heard)',
    instances: 1,
    store: 'sqlite',
    variant: 'keptBriefly',
  },
  'sqlite-checkpoints-in-commits': {
    label: "1 instance, SQLite, WAL checkpoints in the commits (SQLite's default)",
    instances: 1,
    store: 'sqlite',
    variant: 'checkpointsInCommits',
    searchHeld: true,
  },
  'sqlite-node-defaults': {
    label: "1 instance, SQLite, Node's own heap settings (memory reducer on, 16 MB semi-spaces, V8's four threads)",
    instances: 1,
    store: 'sqlite',
    variant: 'nodeDefaults',
  },
  'sqlite-v8-pool-4': {
    label: "1 instance, SQLite, V8's four helper threads (Node's default pool)",
    instances: 1,
    store: 'sqlite',
    variant: 'v8Pool4',
    searchHeld: true,
  },
  'sqlite-whole-indexes': {
    label: '1 instance, SQLite, whole indexes (the partial ones of migration 020 whole again)',
    instances: 1,
    store: 'sqlite',
    variant: 'wholeIndexes',
  },
  'sqlite-outbox-each-round': {
    label: '1 instance, SQLite, the outbox claimed on every round of the message worker',
    instances: 1,
    store: 'sqlite',
    variant: 'outboxEachRound',
  },
  'sqlite-pages-each-change': {
    label: '1 instance, SQLite, every diner page written on every change (unchanged ones too)',
    instances: 1,
    store: 'sqlite',
    variant: 'pagesEachChange',
  },
  pg: { label: '1 instance, PostgreSQL', instances: 1, store: 'pg' },
  'pg-pages-each-change': {
    label: '1 instance, PostgreSQL, every diner page written on every change (unchanged ones too)',
    instances: 1,
    store: 'pg',
    variant: 'pagesEachChange',
  },
  'pg-outbox-each-round': {
    label: '1 instance, PostgreSQL, the outbox claimed on every round of the message worker',
    instances: 1,
    store: 'pg',
    variant: 'outboxEachRound',
  },
  'pg-unnamed-statements': {
    label: '1 instance, PostgreSQL, statements compiled once sent unnamed (parsed and planned at each run)',
    instances: 1,
    store: 'pg',
    variant: 'unnamedStatements',
    searchHeld: true,
  },
  two: { label: "2 instances, PostgreSQL + Redis, nginx (a venue's streams on one instance)", instances: 2, store: 'pg', balance: 'venue' },
  'two-rr': { label: '2 instances, PostgreSQL + Redis, nginx round-robin', instances: 2, store: 'pg', balance: 'round-robin' },
  'pg-quota': { label: `1 instance of ${QUOTA} core, PostgreSQL`, instances: 1, store: 'pg', quota: true },
  'pg-quota-redis': {
    label: `1 instance of ${QUOTA} core, PostgreSQL + Redis`,
    instances: 1,
    store: 'pg',
    quota: true,
    redis: true,
  },
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
 * From the instance's own /metrics: the event loop's delay since the last read (prom-client's
 * default metrics reset it at each read, plugins/metrics.ts), and the venue events it has published
 * so far (vez_events_published_total: with Redis, one PUBLISH each), and its garbage collections
 * so far (prom-client's nodejs_gc_duration_seconds: the major ones, and every kind's main-thread pauses).
 */
async function instanceMetrics(
  port: number,
): Promise<{ maxMs: number; p99Ms: number; events: number; majorGcs: number; gcPauseS: number }> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const lines = text.split('\n');
    const valueOf = (line: string | undefined) => Number(/^(\S+)\s+(\S+)$/.exec(line ?? '')?.[2] ?? NaN);
    const read = (name: string) => valueOf(lines.find((l) => l.startsWith(`${name} `)));
    return {
      maxMs: round(read('vez_nodejs_eventloop_lag_max_seconds') * 1000, 1),
      p99Ms: round(read('vez_nodejs_eventloop_lag_p99_seconds') * 1000, 1),
      events: read('vez_events_published_total'),
      majorGcs: read('vez_nodejs_gc_duration_seconds_count{kind="major"}'),
      gcPauseS: lines.filter((l) => l.startsWith('vez_nodejs_gc_duration_seconds_sum{')).reduce((a, l) => a + valueOf(l), 0),
    };
  } catch {
    return { maxMs: NaN, p99Ms: NaN, events: NaN, majorGcs: NaN, gcPauseS: NaN };
  }
}

/** Redis's own counters (shared with whatever else uses this Redis): PUBLISH calls, bytes sent to clients. */
async function redisCounters(redis: Redis | undefined): Promise<{ publishes: number; outBytes: number } | undefined> {
  if (!redis) return undefined;
  try {
    const commands = await redis.info('commandstats');
    const stats = await redis.info('stats');
    return {
      publishes: Number(/cmdstat_publish:calls=(\d+)/.exec(commands)?.[1] ?? 0),
      outBytes: Number(/total_net_output_bytes:(\d+)/.exec(stats)?.[1] ?? NaN),
    };
  } catch {
    return undefined;
  }
}

/** PostgreSQL's WAL position in bytes (the whole cluster: other work on it counts too). */
async function walBytes(db: ReturnType<typeof openDb> | undefined): Promise<number | undefined> {
  if (!db) return undefined;
  try {
    const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(db.kysely);
    const [hi, lo] = rows[0]!.lsn.split('/').map((x) => parseInt(x, 16));
    return hi! * 2 ** 32 + lo!;
  } catch {
    return undefined;
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
async function startServer(extra: Record<string, string>, quota?: number, variant?: CapacityVariant): Promise<Server> {
  const port = await freePort();
  // Node's flags as `npm run serve` passes them (lib/v8-flags.ts), but where the variant is their absence (or the pool's).
  const nodeArgs = [
    ...(variant === 'nodeDefaults' ? [] : SERVER_NODE_FLAGS.filter((flag) => variant !== 'v8Pool4' || !flag.startsWith('--v8-pool-size='))),
    ...(process.env.CAPACITY_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const entry = variant ? 'bench/lib/capacity-server.ts' : 'apps/server/src/main.ts';
  const stdout = process.env.CAPACITY_STDOUT_DIR ? fs.openSync(`${process.env.CAPACITY_STDOUT_DIR}/out-${port}.log`, 'a') : 'ignore';
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', entry], {
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
      ...(variant ? { CAPACITY_VARIANT: variant } : {}),
      ...extra,
    },
    stdio: ['ignore', stdout, 'pipe'],
  });
  // The child holds its own copy of the log file's descriptor.
  if (typeof stdout === 'number') fs.closeSync(stdout);
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

/** CPU use over a window, in % of one core and in CPU seconds, and memory at its end, of every process that matters. */
interface Resources {
  /** Per server instance: % of one core, CPU seconds, RSS MB. */
  servers: { cpu: number; cpuS: number; rssMb: number; wakes: number }[];
  nginxCpu: number | null;
  postgresCpu: number | null;
  redisCpu: number | null;
  /** CPU seconds of nginx, PostgreSQL (all its processes, whoever uses them) and Redis over the window. */
  nginxS: number;
  postgresS: number;
  redisS: number;
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
    wakes: p.servers.map((pid) => wakesOf(pid) ?? 0),
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
      servers: p.servers.map((pid, i) => {
        const cpuS = after.servers[i]! - before.servers[i]!;
        return { cpu: pct(cpuS), cpuS: round(cpuS, 3), rssMb: round(rssMbOf(pid) ?? NaN), wakes: after.wakes[i]! - before.wakes[i]! };
      }),
      nginxCpu: p.nginx.length ? pct(after.nginx - before.nginx) : null,
      postgresCpu: p.postgres.length ? pct(after.postgres - before.postgres) : null,
      redisCpu: p.redis.length ? pct(after.redis - before.redis) : null,
      nginxS: round(after.nginx - before.nginx, 3),
      postgresS: round(after.postgres - before.postgres, 3),
      redisS: round(after.redis - before.redis, 3),
      generatorCpu: pct((after.self.user + after.self.system - before.self.user - before.self.system) / 1e6),
      clientsCpu: pct(after.clients - before.clients),
      machineBusy: round(((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * 100, 1),
      seconds: round(s, 2),
    };
  };
}

/** Counted over a step: what went out, to screens, over the bus, into the WAL. */
interface Counts {
  /** Change messages that reached a screen (diner `position`, console `queue`; heartbeats not counted). */
  streamWrites: number;
  streamBytes: number;
  /** Venue events the instances published (their /metrics), all instances together. */
  busEvents: number;
  /** Redis PUBLISH calls and bytes Redis sent, from INFO (the whole Redis: other users count too). */
  redisPublishes: number | null;
  redisOutBytes: number | null;
  /** WAL bytes PostgreSQL wrote (the whole cluster). */
  walBytes: number | null;
}

type Phase = 'account' | 'account-per-instance' | 'held';

interface Step extends StepResult {
  phase: Phase;
  pass: boolean;
  why: string;
  resources: Resources;
  counts: Counts;
  dropped: number;
  /** Per instance, over the step: the event loop's longest and p99 delay. */
  loop: { maxMs: number; p99Ms: number }[];
  /**
   * Per instance, over the step: major garbage collections and the main thread's GC pauses (ms).
   * A major GC marks the whole heap (~400 MB with 20,000 streams): a step that holds one costs more.
   */
  gc?: { majors: number; pauseMs: number }[];
  /** When rounds of heartbeats (SSE_HEARTBEAT_SECONDS) reached the screens, s from the step's start. */
  heartbeats: number[];
  /** Quota setups, per instance: the share of CFS periods in which the quota ran out (%). */
  throttled?: number[];
}

/** One accounting step's figures, net of the bare reference (the same instances, the same streams, no change). */
interface Account {
  rate: number;
  sent: number;
  /** Changes answered 200/201 within the step and its drain: the divisor. */
  answered: number;
  /** Nothing timed out or left unsent (<= 2 % of the scheduled); a step that fell behind may have done some of its work outside its window. */
  keptUp: boolean;
  /** Server CPU per change, ms: all instances together, and net of the reference per instance and together. */
  grossMs: number;
  netMs: number[];
  netTotalMs: number;
  /** The busiest instance's net CPU per change (it runs out first). */
  netBusiestMs: number;
  writesPerChange: number;
  /** Net server CPU per stream write, µs (every cost of the change divided over its writes: an upper bound). */
  usPerWrite: number;
  busEventsPerChange: number;
  redisPublishesPerChange: number | null;
  redisOutKbPerChange: number | null;
  /** Redis CPU per event published, µs. */
  redisUsPerEvent: number | null;
  postgresMsPerChange: number | null;
  walKbPerChange: number | null;
  nginxMsPerChange: number | null;
  /**
   * The instances' event loops put to sleep and woken again (voluntary context switches of their
   * main threads: a socket, a timer, an fsync waited for), net of the reference, all instances
   * together; null in results written before it was counted.
   */
  wakesPerChange: number | null;
  p99: number;
  pass: boolean;
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
  /** Server RSS started, before any stream; and with every stream open. */
  rssBeforeMb: number[];
  rssAfterConnectMb: number[];
  /** Open streams per instance (its /metrics gauge would say the same; counted here from nginx's spread). */
  streamsPerInstance: number[];
  /** The bare reference: every stream open, no change, over CAPACITY_IDLE_SECONDS. */
  idle?: Resources;
  /**
   * Bare requests at the accounting's rate (times the instances) over one step's time before each
   * accounting step, the streams open, no change: the servers' CPU per request net of the
   * reference (ms, all instances), what this machine charges a request that does nothing at that
   * rate. Absent from runs before it was measured.
   */
  bareRequests?: { rate: number; sent: number; ok: number; netMs: number; wakes?: number }[];
  steps: Step[];
  accounts: Account[];
  /**
   * Several instances: accounting steps at CAPACITY_RATE x instances, each run right after one of
   * `accounts`, so that each instance carries about the changes one instance carries at CAPACITY_RATE
   * (a change costs less when more come together: comparing one instance at 30/s with two at 15/s
   * each would charge the pair for carrying less). Scale-out is judged from these.
   */
  perInstanceAccounts?: Account[];
  /** The model's sustainable rate from the medians of the accounting, and the inputs it used. */
  model?: { usableCores: number; idleCores: number[]; netMs: number[]; predicted: number };
  /** The highest rate that passed below the lowest that failed (0: none passed). */
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

const median = (xs: number[]): number => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
};

/**
 * The accounting steps the medians use: all of them. A step that fell behind is still counted by
 * the changes answered within its window, and the median keeps one odd step out; the tables say
 * which steps kept up (on a machine other work keeps busy, often none).
 */
const usable = (accounts: Account[]): Account[] => accounts;

/** The accounting of one step against the reference's CPU rate per instance (cores). */
function accountOf(step: Step, idleCores: number[], idleWakes?: number[]): Account {
  const r = step.resources;
  // Work the server did on changes answered within the window; a change answered later was done (partly) outside it.
  const n = Math.max(1, step.answeredOk);
  const per = (x: number) => x / n;
  const net = r.servers.map((x, i) => ((x.cpuS - (idleCores[i] ?? 0) * r.seconds) * 1000) / n);
  const netTotal = net.reduce((a, b) => a + b, 0);
  const c = step.counts;
  return {
    rate: step.rate,
    sent: step.sent,
    answered: step.answeredOk,
    keptUp: step.timedOut + step.unsent <= 0.02 * step.scheduled,
    grossMs: round((r.servers.reduce((a, x) => a + x.cpuS, 0) * 1000) / n, 2),
    netMs: net.map((x) => round(x, 2)),
    netTotalMs: round(netTotal, 2),
    netBusiestMs: round(Math.max(...net), 2),
    writesPerChange: round(per(c.streamWrites), 1),
    usPerWrite: c.streamWrites > 0 ? round(((netTotal / 1000) * n * 1e6) / c.streamWrites) : NaN,
    busEventsPerChange: round(per(c.busEvents), 2),
    redisPublishesPerChange: c.redisPublishes === null ? null : round(per(c.redisPublishes), 2),
    redisOutKbPerChange: c.redisOutBytes === null ? null : round(per(c.redisOutBytes) / 1024, 1),
    redisUsPerEvent: r.redisCpu === null || c.busEvents === 0 ? null : round((r.redisS * 1e6) / c.busEvents),
    postgresMsPerChange: r.postgresCpu === null ? null : round(per(r.postgresS * 1000), 2),
    walKbPerChange: c.walBytes === null ? null : round(per(c.walBytes) / 1024, 1),
    nginxMsPerChange: r.nginxCpu === null ? null : round(per(r.nginxS * 1000), 2),
    wakesPerChange: idleWakes ? netWakes(r, idleWakes, n) : null,
    p99: step.dueP99,
    pass: step.pass,
  };
}

/** The servers' event-loop wakes over a step, net of the reference's rate, per request answered (all instances together). */
function netWakes(r: Resources, idleWakes: number[], answered: number): number {
  const net = r.servers.reduce((a, x, i) => a + x.wakes - (idleWakes[i] ?? 0) * r.seconds, 0);
  return round(net / Math.max(1, answered), 2);
}

/**
 * The model again with the CPU per change measured at load: in the first step of the search, at
 * the rate the accounting's model predicted. A change costs less the more of them come together
 * (commits, refreshes and their writes are shared), so the cost at 30/s underestimates what an
 * instance holds; planning for a peak takes the cost near that peak. Not the rate held's own step:
 * the prediction must not use the answer. Undefined without a search.
 */
function modelAtLoad(r: SetupResult): { netMs: number[]; predicted: number; rate: number } | undefined {
  const m = r.model;
  const first = r.steps.find((s) => s.phase === 'held');
  if (!m || !first || first.answeredOk === 0) return undefined;
  const netMs = accountOf(first, m.idleCores).netMs;
  return { netMs, predicted: predictRate(m.usableCores, m.idleCores, netMs), rate: first.rate };
}

/** The sustainable rate of the instances: the busiest runs out first (changes/s; 0 when the streams alone take the planned cores). */
function predictRate(usableCores: number, idleCores: number[], netMs: number[]): number {
  const rates = netMs.map((ms, i) => (ms > 0 ? Math.max(0, usableCores - (idleCores[i] ?? 0)) / (ms / 1000) : Infinity));
  return round(Math.min(...rates), 1);
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
    rssBeforeMb: [],
    rssAfterConnectMb: [],
    streamsPerInstance: [],
    steps: [],
    accounts: [],
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
  let redis: Redis | undefined;
  let pg: ReturnType<typeof openDb> | undefined;
  try {
    let t = Date.now();
    const seeded = await seedCapacity(database, mix, HEADS);
    log(
      `${name}: seeded ${seeded.length} venues, ${STREAMS} waiting parties with pages and ${HEADS} more at each head in ${round((Date.now() - t) / 1000, 1)} s`,
    );

    // Several instances share venue events through Redis; one instance only in the setup that measures the bus.
    const usesRedis = instances > 1 || spec.redis === true;
    const serverEnv: Record<string, string> =
      spec.store === 'sqlite'
        ? { DATABASE_URL: `file:${database.kind === 'sqlite' ? database.file : ''}` }
        : {
            DATABASE_URL: PG_URL,
            DATABASE_SCHEMA: schema,
            ...(usesRedis ? { REDIS_URL } : {}),
            ...(instances > 1 ? { TRUST_PROXY: '1' } : {}),
          };
    for (let i = 0; i < instances; i++) servers.push(await startServer(serverEnv, spec.quota ? QUOTA : undefined, spec.variant));
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
    if (usesRedis) redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    if (spec.store === 'pg') pg = openDb({ kind: 'postgres', url: PG_URL });
    const cookie = await login(port);
    await sleep(1000);
    result.rssBeforeMb = servers.map((s) => round(rssMbOf(s.child.pid) ?? NaN));

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
    for (const list of assigned) shuffleInPlace(list, shuffle);
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
    result.streamsPerInstance = await Promise.all(servers.map((s) => openStreams(s.port)));

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
      redis: usesRedis ? pidsByName((c) => c.startsWith('redis-server')) : [],
      clients: clients.map((c) => c.pid!),
    };
    type ClientStats = { dropped: number; heartbeatRounds: number[]; messages: number; bytes: number };
    const stats = async () =>
      (await Promise.all(clients.map((c) => ask<{ stats: ClientStats }>(c, { cmd: 'stats' }, 'stats')))).map((s) => s.stats);
    const droppedSoFar = async () => (await stats()).reduce((a, s) => a + s.dropped, 0);
    /** Every counter a step is accounted by, read at once. */
    const counters = async () => {
      const [client, metrics, r, wal] = await Promise.all([
        stats(),
        Promise.all(servers.map((x) => instanceMetrics(x.port))),
        redisCounters(redis),
        walBytes(pg),
      ]);
      return {
        writes: client.reduce((a, s) => a + s.messages, 0),
        bytes: client.reduce((a, s) => a + s.bytes, 0),
        dropped: client.reduce((a, s) => a + s.dropped, 0),
        heartbeatRounds: client.flatMap((s) => s.heartbeatRounds),
        events: metrics.reduce((a, m) => a + m.events, 0),
        loop: metrics.map(({ maxMs, p99Ms }) => ({ maxMs, p99Ms })),
        gc: metrics.map(({ majorGcs, gcPauseS }) => ({ majorGcs, gcPauseS })),
        redis: r,
        wal,
      };
    };

    // Warm-up (not counted): JIT, pools, caches. Instances under a quota at half the rate. As long
    // as an accounting step: with 3 s, the first repeat cost 10-25 % more than the next ones. Each
    // instance gets as many changes as one alone would (several instances: the rate times their
    // number), or a pair starts its accounting less warm than the one it is compared with. First a
    // change at every venue, at twice that rate: after the mix's 60 s alone, about half of the small
    // venues had seen none, each repeat cost less than the one before (SQLite 3.4, 2.97, 2.37 ms),
    // and a server that has run a while keeps every venue it hears (docs/decisions/067-scale-out-at-the-same-load.md).
    const warmRate = (spec.quota ? Math.max(1, Math.round(RATE / 2)) : RATE) * servers.length;
    await driver.everyVenue(2 * warmRate);
    await driver.settle();
    await driver.step(warmRate, WARMUP_S);
    await driver.settle();
    let dropped = await droppedSoFar();
    await sleep(1000);

    // The bare reference: every stream open, no change, over one heartbeat period.
    const idle = sampler(probe);
    await sleep(IDLE_S * 1000);
    result.idle = idle();
    const idleCores = result.idle.servers.map((x) => x.cpuS / result.idle!.seconds);
    const idleWakes = result.idle.servers.map((x) => x.wakes / result.idle!.seconds);
    log(`${name}: reference (streams open, no change) ${result.idle.servers.map((x) => `${x.cpu}%`).join(' + ')} of a core`);

    // Bare requests at the accounting's rate, before each accounting step: the part of a change's
    // cost that any request at that rate pays on this machine (an idle event loop woken by the
    // network), for the report beside it. Each against the reference, as the changes are.
    const bareStep = async () => {
      await sleep(1000);
      const rate = RATE * servers.length;
      const sample = sampler(probe);
      const { sent, ok } = await driver!.bareRequests(rate, STEP_S);
      const r = sample();
      const net = r.servers.reduce((a, x, i) => a + x.cpuS - (idleCores[i] ?? 0) * r.seconds, 0);
      const bare = { rate, sent, ok, netMs: round((net * 1000) / Math.max(1, ok), 3), wakes: netWakes(r, idleWakes, ok) };
      (result.bareRequests ??= []).push(bare);
      log(
        `${name}: bare requests at ${rate}/s: ${bare.netMs} ms of server CPU each, net of the reference (${ok} of ${sent} answered 200); ${bare.wakes} event-loop wakes each`,
      );
    };

    const runStep = async (rate: number, phase: Phase): Promise<Step> => {
      await sleep(1000);
      const before = await counters();
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
      const after = await counters();
      await driver!.settle();
      // When the server's heartbeat rounds reached the screens during the step (s from its start).
      const heartbeats = [...new Set(after.heartbeatRounds.map((x) => round((x - s.startedAt) / 1000, 1)))]
        .filter((x) => x >= 0 && x <= STEP_S + 1)
        .sort((a, b) => a - b);
      const v = verdict(s, after.dropped - dropped);
      dropped = after.dropped;
      const counts: Counts = {
        streamWrites: after.writes - before.writes,
        streamBytes: after.bytes - before.bytes,
        busEvents: after.events - before.events,
        redisPublishes: after.redis && before.redis ? after.redis.publishes - before.redis.publishes : null,
        redisOutBytes: after.redis && before.redis ? after.redis.outBytes - before.redis.outBytes : null,
        walBytes: after.wal !== undefined && before.wal !== undefined ? after.wal - before.wal : null,
      };
      const step: Step = {
        ...s,
        phase,
        ...v,
        resources,
        counts,
        dropped: after.dropped,
        loop: after.loop,
        gc: after.gc.map((x, i) => ({
          majors: x.majorGcs - before.gc[i]!.majorGcs,
          pauseMs: round((x.gcPauseS - before.gc[i]!.gcPauseS) * 1000),
        })),
        heartbeats,
        ...(throttled ? { throttled } : {}),
      };
      result.steps.push(step);
      log(
        `${name} ${phase} ${rate}/s: ${v.pass ? 'pass' : `FAIL (${v.why})`}; p99 ${s.dueP99} ms, ${s.sent} sent; servers ${resources.servers.map((x) => `${x.cpu}%`).join(' + ')}; ${counts.streamWrites} writes, ${counts.busEvents} events; event loop max ${after.loop.map((x) => `${x.maxMs} ms`).join(', ')}; major GCs ${step.gc!.map((x) => `${x.majors} (pauses ${x.pauseMs} ms)`).join(', ')};${throttled ? ` quota ran out in ${throttled.map((x) => `${x}%`).join(', ')} of periods;` : ''} machine ${resources.machineBusy}%`,
      );
      return step;
    };

    // The accounting: fixed-rate steps, each against the reference.
    // Several instances: each step at CAPACITY_RATE is followed by one at CAPACITY_RATE per instance.
    for (let i = 0; i < REPEATS; i++) {
      await bareStep();
      for (const [rate, phase, into] of [
        [RATE, 'account', result.accounts] as const,
        ...(servers.length > 1 ? [[RATE * servers.length, 'account-per-instance', (result.perInstanceAccounts ??= [])] as const] : []),
      ]) {
        const account = accountOf(await runStep(rate, phase), idleCores, idleWakes);
        into.push(account);
        log(
          `${name} ${phase} ${i + 1} at ${rate}/s: ${account.netMs.join(' + ')} ms net per change (gross ${account.grossMs}); ${account.writesPerChange} writes and ${account.wakesPerChange} event-loop wakes per change${account.keptUp ? '' : '; fell behind'}`,
        );
      }
    }

    // The model's rate from the medians, then the rate held found around it.
    const usableCores = round((spec.quota ? QUOTA : 1) * HEADROOM, 3);
    const netMs = servers.map((_, i) => round(median(usable(result.accounts).map((a) => a.netMs[i]!)), 2));
    const predicted = predictRate(usableCores, idleCores, netMs);
    result.model = { usableCores: round(usableCores, 2), idleCores: idleCores.map((x) => round(x, 3)), netMs, predicted };
    log(`${name}: model predicts ${predicted}/s (usable ${usableCores} core per instance, net ${netMs.join(' + ')} ms per change)`);

    const passes = passedByRate(result.steps);
    const heldOf = () => {
      const lowestFail = Math.min(...[...passes].filter(([, p]) => !p).map(([r]) => r));
      return Math.max(0, ...[...passes].filter(([r, p]) => p && r < lowestFail).map(([r]) => r));
    };
    let rate = Math.max(1, Math.round(Number.isFinite(predicted) && predicted > 0 ? predicted : RATE / 2));
    // A variant is compared by its CPU per change only, unless it changes latency: no search for the rate it holds.
    for (let i = 0; i < (spec.variant && !spec.searchHeld ? 0 : HELD_STEPS); i++) {
      if (!passes.has(rate)) passes.set(rate, (await runStep(rate, 'held')).pass);
      const held = heldOf();
      const lowestFail = Math.min(...[...passes].filter(([, p]) => !p).map(([r]) => r));
      let next: number;
      if (held === 0) next = Math.max(1, Math.floor(Math.min(rate, lowestFail) * 0.8));
      else if (!Number.isFinite(lowestFail)) next = Math.round(held * 1.25);
      else if (lowestFail / held > 1.12) next = Math.round(Math.sqrt(held * lowestFail));
      else break;
      if (next === rate || passes.has(next) || next < 1) break;
      rate = next;
    }
    result.held = heldOf();
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
    redis?.disconnect();
    await pg?.close();
    if (database.kind === 'postgres') {
      const db = openDb(database);
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely).catch(() => undefined);
      await db.close();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** Whether each rate tried passed: a rate passes only if every step at it passed. */
/**
 * Whether each rate tried is held: by most of its steps. The accounting repeats one rate several
 * times; one of them missing the p99 (a stall of the machine) must not cap the search below it
 * when the others held it. A rate tried once is held when that step passed.
 */
function passedByRate(steps: Step[]): Map<number, boolean> {
  const tally = new Map<number, { pass: number; fail: number }>();
  for (const s of steps) {
    const t = tally.get(s.rate) ?? { pass: 0, fail: 0 };
    if (s.pass) t.pass += 1;
    else t.fail += 1;
    tally.set(s.rate, t);
  }
  return new Map([...tally].map(([rate, t]) => [rate, t.pass > t.fail]));
}

/** Streams open on an instance, from its /metrics gauge (diner and host). */
async function openStreams(port: number): Promise<number> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    return [...text.matchAll(/^vez_open_streams\{kind="\w+"\} (\d+)/gm)].reduce((a, m) => a + Number(m[1]), 0);
  } catch {
    return NaN;
  }
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

/** The figure of another day the one-instance rates are compared with: a capacity.json, by default the run of 2026-11-25 (bench/baselines/). */
interface Baseline {
  source: string;
  ranAt: string;
  venues: number;
  streams: number;
  held: Partial<Record<SetupName, number>>;
}

function loadBaseline(): Baseline | undefined {
  // A fixed run, not the last one committed: a baseline that moved with every commit would ask
  // each change for three times the one before it.
  const file = process.env.CAPACITY_BASELINE ?? path.join(import.meta.dirname, 'baselines', 'capacity-2026-11-25.json');
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const stored = JSON.parse(text) as {
      ranAt?: string;
      environment?: { venues?: number; streams?: number };
      figures?: { setups?: { name: SetupName; held: number; error?: string }[] };
    };
    const held: Baseline['held'] = {};
    for (const s of stored.figures?.setups ?? []) if (!s.error) held[s.name] = s.held;
    return {
      source: path.relative(repoRoot, file),
      ranAt: stored.ranAt ?? 'unknown',
      venues: stored.environment?.venues ?? NaN,
      streams: stored.environment?.streams ?? NaN,
      held,
    };
  } catch {
    return undefined;
  }
}

export default async function run(): Promise<BenchReport> {
  const baseline = loadBaseline();
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
  const settings = settingsNow();
  const { targets, markdown, scaleOut } = render(mixFigures, results, baseline, settings);

  return {
    title: `Capacity: ${VENUES} venues, ${STREAMS} diner streams, ${HOSTS} consoles; server CPU per change at ${RATE}/s (${REPEATS} repeats, net of a bare reference), the model's rate and the rate held at p99 <= ${P99_MS} ms`,
    environment: {
      venues: VENUES,
      streams: STREAMS,
      hosts: HOSTS,
      maxQueue: MAX_QUEUE,
      stepSeconds: STEP_S,
      warmupSeconds: WARMUP_S,
      idleSeconds: IDLE_S,
      heartbeatSeconds: HEARTBEAT_S,
      rate: RATE,
      repeats: REPEATS,
      headroom: HEADROOM,
      quota: QUOTA,
      setups: SETUPS.join(','),
      cpus: os.cpus().length,
      openFileLimit: openFileLimit(),
      loadAverage1m: round(os.loadavg()[0] ?? 0, 1),
    },
    figures: { mix: mixFigures, settings, baseline: baseline ?? null, setups: results, scaleOut },
    targets,
    markdown,
  };
}

/** The settings a rendering needs (stored with the figures, so --render does not read this process's environment). */
function settingsNow() {
  return {
    rate: RATE,
    repeats: REPEATS,
    stepSeconds: STEP_S,
    warmupSeconds: WARMUP_S,
    idleSeconds: IDLE_S,
    headroom: HEADROOM,
    quota: QUOTA,
    p99Ms: P99_MS,
    venues: VENUES,
    streams: STREAMS,
    hosts: HOSTS,
    heads: HEADS,
    maxQueue: MAX_QUEUE,
    cpus: os.cpus().length,
  };
}
type Settings = ReturnType<typeof settingsNow>;

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

/** Median (min–max) of the repeats, or the single value. */
function spread(xs: (number | null)[], digits = 2): string {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  if (v.length === 0) return '—';
  const m = round(median(v), digits);
  if (v.length === 1) return `${m}`;
  return `${m} (${round(Math.min(...v), digits)}–${round(Math.max(...v), digits)})`;
}

/** The report's targets and text from the figures (also re-rendered from a stored run: --render). */
function render(
  mixFigures: MixFigures,
  results: SetupResult[],
  baseline: Baseline | undefined,
  cfg: Settings,
): { targets: BenchReport['targets']; markdown: string; scaleOut: ScaleOut | null } {
  const named = (n: SetupName) => results.find((r) => r.name === n && !r.error && r.accounts.length > 0);
  const idleCell = (r: SetupResult) => (r.idle ? r.idle.servers.map((x) => `${x.cpu}%`).join(' + ') : '—');
  const accountRow = (r: SetupResult, label: string, accounts: Account[]) => {
    const c = (f: (a: Account) => number | null, digits = 2) => spread(usable(accounts).map(f), digits);
    return `| ${label} | ${idleCell(r)} | ${c((a) => a.grossMs)} | ${accounts[0] ? accounts[0].netMs.map((_, i) => c((a) => a.netMs[i]!)).join(' + ') : '—'} | ${c((a) => a.netTotalMs)} | ${c((a) => a.writesPerChange, 1)} | ${c((a) => a.usPerWrite, 0)} | ${c((a) => a.busEventsPerChange)} | ${c((a) => a.redisPublishesPerChange)} | ${c((a) => a.redisUsPerEvent, 0)} | ${c((a) => a.redisOutKbPerChange, 1)} | ${c((a) => a.postgresMsPerChange)} | ${c((a) => a.walKbPerChange, 1)} | ${c((a) => a.nginxMsPerChange)} | ${spread(
      accounts.map((a) => a.p99),
      0,
    )} | ${accounts.filter((a) => a.pass).length}/${accounts.length} | ${accounts.filter((a) => a.keptUp).length}/${accounts.length} |`;
  };

  const accountTable = [
    `| Setup | reference: streams open, no change (% of a core per instance) | server CPU per change, gross (ms) | net of the reference, per instance (ms) | net, all instances (ms) | stream writes per change | net µs per stream write | bus events per change | Redis PUBLISH per change (INFO) | Redis µs per event | Redis KB out per change | PostgreSQL CPU per change (ms) | WAL KB per change | nginx CPU per change (ms) | p99 ms | passed | kept up |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.flatMap((r) =>
      r.error && r.accounts.length === 0
        ? [`| ${r.label} | failed: ${r.error} ||||||||||||||||`]
        : [
            accountRow(r, r.label, r.accounts),
            ...(r.perInstanceAccounts?.length
              ? [accountRow(r, `${r.label}, at ${r.perInstanceAccounts[0]!.rate}/s`, r.perInstanceAccounts)]
              : []),
          ],
    ),
  ].join('\n');

  const bareTable = [
    `| Setup | bare requests (GET /api/health/live) per second | net ms of server CPU per bare request (median (min–max) of ${cfg.repeats}) | net ms per change at ${cfg.rate}/s (median, all instances) | a change in bare requests at the same rate (medians) | event-loop wakes per bare request | event-loop wakes per change |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    ...results
      .filter((r) => r.bareRequests?.length)
      .map((r) => {
        const bares = r.bareRequests!;
        const bare = median(bares.map((b) => b.netMs));
        const change = median(usable(r.accounts).map((a) => a.netTotalMs));
        const wakes = (xs: (number | null | undefined)[]) => {
          const known = xs.filter((x): x is number => typeof x === 'number');
          return known.length ? spread(known) : '—';
        };
        return `| ${r.label} | ${bares[0]!.rate} | ${spread(bares.map((b) => b.netMs))} | ${round(change, 2)} | ${bare > 0 ? round(change / bare, 1) : '—'} | ${wakes(bares.map((b) => b.wakes))} | ${wakes(usable(r.accounts).map((a) => a.wakesPerChange))} |`;
      }),
  ].join('\n');

  const kbPerStream = (r: SetupResult) =>
    r.rssAfterConnectMb.map((after, i) => {
      const streams = r.streamsPerInstance[i] ?? NaN;
      return streams > 0 ? round(((after - (r.rssBeforeMb[i] ?? NaN)) * 1024) / streams) : NaN;
    });
  const idlePer1000 = (r: SetupResult) =>
    r.idle ? r.idle.servers.map((x, i) => round((x.cpu / Math.max(1, r.streamsPerInstance[i] ?? 0)) * 1000, 2)) : [];
  const streamTable = [
    '| Setup | streams per instance (diner + console) | reference CPU per 1,000 streams (% of a core) | RSS before streams / with them (MB) | KB per stream |',
    '|---|---:|---:|---:|---:|',
    ...results
      .filter((r) => r.rssAfterConnectMb.length > 0)
      .map(
        (r) =>
          `| ${r.label} | ${r.streamsPerInstance.join(' + ')} | ${idlePer1000(r).join(' + ')} | ${r.rssBeforeMb.map((b, i) => `${b} / ${r.rssAfterConnectMb[i]}`).join(' + ')} | ${kbPerStream(r).join(' + ')} |`,
      ),
  ].join('\n');

  // Scale-out: one instance against two of the same kind (under the same quota when both ran).
  const one = named('pg-quota') && named('two-quota') ? named('pg-quota') : named('pg');
  const two = named('pg-quota') && named('two-quota') ? named('two-quota') : named('two');
  const rr = two?.name === 'two-quota' ? named('two-quota-rr') : named('two-rr');
  let scaleOut: ScaleOut | null = null;
  const scaleLines: string[] = [];
  if (one && two) {
    // Judged with each instance as loaded as the one (two.perInstanceAccounts, at twice the rate);
    // a run stored before those steps existed has only the same total rate.
    const loaded = two.perInstanceAccounts ?? two.accounts;
    const n = Math.min(one.accounts.length, loaded.length);
    const rows = Array.from({ length: n }, (_, k) => {
      const a = one.accounts[k]!;
      const b = loaded[k]!;
      const same = two.accounts[k]!;
      return {
        one: a.netTotalMs,
        rate: b.rate,
        two: b.netMs,
        twoSum: b.netTotalMs,
        /** How many times the changes of one instance two can take: the busiest of the two runs out first. */
        work: round(a.netTotalMs / b.netBusiestMs, 2),
        /** The same with the work shared evenly: 2 x one / (both together). */
        even: round((2 * a.netTotalMs) / b.netTotalMs, 2),
        /** One against the busiest of two at the same total rate (each of the two carrying half). */
        sameTotal: round(a.netTotalMs / same.netBusiestMs, 2),
        keptUp: a.keptUp && b.keptUp,
      };
    });
    scaleOut = { one: one.name, two: two.name, rows };
    scaleLines.push(
      `One instance at ${cfg.rate}/s against two at ${two.perInstanceAccounts ? `${cfg.rate * two.instances}/s (each carrying about what the one carries: a change costs less when more come together)` : `${cfg.rate}/s`}, step by step (interleaved with the ${cfg.rate}/s steps); the last column is the pair at ${cfg.rate}/s, each instance carrying half.`,
      '',
      `| repeat | ${one.label}: net ms per change | ${two.label}: rate | per instance | both together | work of two / one (one / busiest of two) | if shared evenly (2 x one / both) | at the same total rate (one / busiest of two) | both kept up |`,
      '|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      ...rows.map(
        (x, k) =>
          `| ${k + 1} | ${x.one} | ${x.rate}/s | ${x.two.join(' + ')} | ${x.twoSum} | ${x.work}x | ${x.even}x | ${x.sameTotal}x | ${x.keptUp ? 'yes' : 'no'} |`,
      ),
    );
    if (rr) {
      const hashSum = median(usable(two.accounts).map((a) => a.netTotalMs));
      const rrSum = median(usable(rr.accounts).map((a) => a.netTotalMs));
      scaleOut.hashMs = round(hashSum, 2);
      scaleOut.roundRobinMs = round(rrSum, 2);
      scaleLines.push(
        '',
        `What the venue \`hash\` saves against round-robin (medians, both instances together, net): ${round(hashSum, 2)} ms per change with the hash, ${round(rrSum, 2)} ms round-robin: ${round(rrSum - hashSum, 2)} ms (${round(((rrSum - hashSum) / rrSum) * 100)} %) less per change; stream writes per change ${spread(
          two.accounts.map((a) => a.writesPerChange),
          1,
        )} against ${spread(
          rr.accounts.map((a) => a.writesPerChange),
          1,
        )} (the same screens). Rates held: ${two.held}/s with the hash, ${rr.held}/s round-robin.`,
      );
    }
  }

  // Kept optimisations against their simpler way, same run (docs/decisions/018-optimisations-that-pay.md):
  // each variant against the plain setup of its store (`sqlite`, `pg`).
  const variantLines = (Object.keys(SETUP_SPECS) as SetupName[]).flatMap((v) => {
    if (!SETUP_SPECS[v].variant) return [];
    const a = named(SETUP_SPECS[v].store);
    const b = named(v);
    if (!a || !b) return [];
    const n = Math.min(a.accounts.length, b.accounts.length);
    const held = SETUP_SPECS[v].searchHeld ? ` Rate held at p99 <= ${cfg.p99Ms} ms: ${a.held}/s against ${b.held}/s.` : '';
    return [
      `- ${a.label}: ${spread(a.accounts.map((x) => x.netTotalMs))} ms net per change; ${b.label}: ${spread(b.accounts.map((x) => x.netTotalMs))} ms (repeat by repeat: ${Array.from({ length: n }, (_, k) => `${a.accounts[k]!.netTotalMs} vs ${b.accounts[k]!.netTotalMs}`).join(', ')}; p99 ms ${Array.from({ length: n }, (_, k) => `${a.accounts[k]!.p99} vs ${b.accounts[k]!.p99}`).join(', ')}).${held}`,
    ];
  });

  const modelTable = [
    `| Setup | usable cores per instance (${cfg.headroom} of ${'its quota or 1 core'}) | reference cores per instance | net ms per change per instance at ${cfg.rate}/s (medians) | predicted rate | net ms per change at that rate (the search's first step) | predicted at load | rate held at p99 <= ${cfg.p99Ms} ms | rates tried (pass/fail) | at the lowest rate that failed: server CPU %, machine % busy | prediction against held (at ${cfg.rate}/s; at load) |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|',
    ...results
      // A variant compared by its CPU alone held no rate of its own: nothing to set a prediction against.
      .filter((r) => r.model && (!SETUP_SPECS[r.name].variant || SETUP_SPECS[r.name].searchHeld))
      .map((r) => {
        const m = r.model!;
        const tried = [...passedByRate(r.steps)]
          .sort((a, b) => a[0] - b[0])
          .map(([rate, pass]) => `${rate} ${pass ? '✓' : '✗'}`)
          .join(', ');
        const err = r.held > 0 ? round(((m.predicted - r.held) / r.held) * 100) : NaN;
        const load = modelAtLoad(r);
        const errAtLoad = load && r.held > 0 ? round(((load.predicted - r.held) / r.held) * 100) : NaN;
        // Where it fell over: did the instance have its cores, or did other work take them?
        const failed = r.steps.filter((s) => !s.pass).sort((a, b) => a.rate - b.rate)[0];
        const where = failed
          ? `${failed.rate}/s: ${failed.resources.servers.map((x) => `${x.cpu}%`).join(' + ')}, machine ${failed.resources.machineBusy}%`
          : '—';
        return `| ${r.label} | ${m.usableCores} | ${m.idleCores.join(' + ')} | ${m.netMs.join(' + ')} | ${m.predicted}/s | ${load ? `${load.netMs.join(' + ')} (at ${load.rate}/s)` : '—'} | ${load ? `${load.predicted}/s` : '—'} | ${r.held}/s | ${tried} | ${where} | ${fmt(err, ' %')}; ${fmt(errAtLoad, ' %')} |`;
      }),
  ].join('\n');

  const sameScale = baseline && baseline.venues === cfg.venues && baseline.streams === cfg.streams;
  const baselineLines = baseline
    ? [
        `Against the baseline: ${baseline.source}, a run of ${baseline.ranAt} (ANOTHER DAY, other code and other load on the machine${sameScale ? '' : `; and another scale: ${baseline.venues} venues, ${baseline.streams} streams, so no target is judged`}). Its rates were found by doubling from 30/s, not around a prediction.`,
        '',
        '| Setup | held in this run | held in the baseline | this run / baseline |',
        '|---|---:|---:|---:|',
        ...results
          .filter((r) => r.instances === 1)
          .map((r) => {
            const b = baseline.held[r.name];
            return `| ${r.label} | ${r.held}/s | ${b === undefined ? '—' : `${b}/s`} | ${b ? `${round(r.held / b, 2)}x` : '—'} |`;
          }),
      ]
    : ['No baseline: bench/baselines/capacity-2026-11-25.json (or CAPACITY_BASELINE) is unreadable.'];

  // Targets.
  const targets: BenchReport['targets'] = [];
  const perChange: [SetupName[], string, number][] = [
    [['sqlite'], 'SQLite', 2],
    [['pg', 'pg-quota'], 'PostgreSQL', 3],
  ];
  for (const [names, store, limit] of perChange) {
    const r = names.map(named).find(Boolean);
    if (!r) continue;
    const v = round(median(usable(r.accounts).map((a) => a.netTotalMs)), 2);
    targets.push({
      name: `${r.label}: server CPU per change at ${cfg.rate}/s in the mix, net of the reference, median of ${usable(r.accounts).length} (ms; ${store})`,
      value: v,
      target: `<= ${limit}`,
      met: v <= limit && cfg.rate === 30,
    });
  }
  if (baseline && sameScale)
    for (const r of results.filter((x) => x.instances === 1)) {
      const b = baseline.held[r.name];
      if (!b) continue;
      targets.push({
        name: `${r.label} holds this many times the rate of the baseline (${r.held}/s against ${b}/s on ${baseline.ranAt}, another day)`,
        value: round(r.held / b, 2),
        target: '>= 3',
        met: r.held / b >= 3,
      });
    }
  if (scaleOut && one && two) {
    const works = scaleOut.rows.map((x) => x.work);
    targets.push({
      name: `two instances do this many times the work of one by CPU accounting (one / busiest of two, ${two.name} at ${scaleOut.rows[0]?.rate ?? cfg.rate}/s against ${one.name} at ${cfg.rate}/s), lowest of ${works.length} repeats (${works.join(', ')})`,
      value: Math.min(...works),
      target: `>= 1.7 in ${Math.max(3, works.length)} of ${Math.max(3, works.length)}`,
      met: works.length >= 3 && works.every((w) => w >= 1.7),
    });
  }
  for (const r of [one, two]) {
    if (!r?.model) continue;
    // The model as an operator plans with it: the cost per change at load (modelAtLoad).
    const load = modelAtLoad(r);
    const predicted = load?.predicted ?? r.model.predicted;
    const err = r.held > 0 ? Math.abs(predicted - r.held) / r.held : Infinity;
    targets.push({
      name: `${r.label}: the model's rate at load (${predicted}/s, CPU per change measured at ${load ? `${load.rate}/s` : `${cfg.rate}/s`}; ${r.model.predicted}/s from the cost at ${cfg.rate}/s) against the rate held (${r.held}/s), off by (%)`,
      value: round(err * 100),
      target: '<= 25',
      met: err <= 0.25,
    });
  }
  const verdicts = targets.map((t) => `- ${t.met ? 'MET' : '**NOT MET**'}: ${t.name}: ${fmt(t.value)} (target ${t.target}).`);

  const stepTable = (r: SetupResult) =>
    [
      `**${r.label}**: ${r.streams - r.connectFailed} diner streams${r.streamsNote ? ` (${r.streamsNote})` : ''} and ${r.hosts} consoles, opened in ${r.connectSeconds} s by ${r.clientProcesses} client processes${r.connectFailed ? `; ${r.connectFailed} failed to open (${r.connectErrors.join('; ')})` : ''}${r.error ? `. Failed: ${r.error}` : ''}.`,
      '',
      '| phase | rate/s | sent | join/call/seat | p50 ms | p99 ms | max ms | answer p99 ms | heartbeat round at (s) | event loop max ms | major GCs (all GC pauses, ms) | quota ran out (% of periods) | server CPU % | stream writes | bus events | nginx % | PostgreSQL % | Redis % | generator % (driver + clients) | machine % | verdict |',
      '|---|---:|---:|---|---:|---:|---:|---:|---|---|---|---|---|---:|---:|---:|---:|---:|---|---:|---|',
      ...r.steps.map(
        (s) =>
          `| ${s.phase} | ${s.rate} | ${s.sent} | ${s.byKind.join}/${s.byKind.call}/${s.byKind.seat} | ${fmt(s.dueP50)} | ${fmt(s.dueP99)} | ${fmt(s.dueMax)} | ${fmt(s.answerP99)} | ${s.heartbeats.length ? s.heartbeats.join(', ') : '—'} | ${s.loop.map((x) => fmt(x.maxMs)).join(' + ')} | ${s.gc ? s.gc.map((x) => `${x.majors} (${fmt(x.pauseMs)})`).join(' + ') : '—'} | ${s.throttled ? s.throttled.join(' + ') : '—'} | ${s.resources.servers.map((x) => x.cpu).join(' + ')} | ${s.counts.streamWrites} | ${s.counts.busEvents} | ${fmt(s.resources.nginxCpu)} | ${fmt(s.resources.postgresCpu)} | ${fmt(s.resources.redisCpu)} | ${s.resources.generatorCpu} + ${s.resources.clientsCpu} | ${s.resources.machineBusy} | ${s.pass ? 'pass' : `fail: ${s.why}`} |`,
      ),
    ].join('\n');

  const markdown = [
    `${cfg.venues} venues, ${cfg.streams} waiting parties with the position page open (a diner stream each), ${mixFigures.venuesWithConsoles} venues with ${cfg.hosts} host consoles open, and ${cfg.heads} more parties at the head of each queue without a page. Queue lengths follow a Zipf law (rank i: ${cfg.maxQueue}/i^${mixFigures.zipfExponent}): busiest ${mixFigures.busiest} pages, 10th ${mixFigures.tenth}, median ${mixFigures.median}. Joins, calls and seats through the HTTP API fall on venues in proportion to their queues (Poisson); a change reaches ${mixFigures.dinerMessagesPerChange} diner pages on average, plus its venue's consoles.`,
    `How it is measured: per setup, a warm-up (a change at every venue, then ${cfg.warmupSeconds ?? 3} s of changes, at the rate times the number of instances; not counted), the bare reference (every stream open, no change, ${cfg.idleSeconds} s: one heartbeat round), then ${cfg.repeats} steps at ${cfg.rate} changes/s of ${cfg.stepSeconds} s each (one heartbeat round each). CPU per change = the servers' CPU over the step (from /proc), less the reference's CPU rate over the same time, divided by the changes answered within the step and its drain (a step that fell behind counts too: "kept up" says which did); stream writes are the change messages the screens received; bus events come from the instances' /metrics, Redis figures from INFO (the shared Redis: other work counts), WAL from pg_current_wal_lsn() (the whole cluster). Figures are median (min–max) of the repeats. The model: rate = (usable cores − reference cores) / net CPU per change, for the busiest instance, from the cost at ${cfg.rate}/s and again from the cost measured in the search's first step, at that first prediction (a change costs less when many come together: commits, refreshes and writes are shared; the second is judged); usable = ${cfg.headroom} of a core per instance (of its ${cfg.quota}-core quota in the quota setups). The rate held is then found around the prediction (p99 <= ${cfg.p99Ms} ms from due to the last message a screen of the venue got, nothing lost; a change is done when the venue's consoles have it and its answer is back: diner pages get a message only when it changes theirs).`,
    '',
    `### Server CPU per change at ${cfg.rate}/s (median (min–max) of ${cfg.repeats})`,
    '',
    accountTable,
    '',
    `### A bare request at the same rate`,
    '',
    `What this machine charges a request that does nothing (the same server and hooks, no store, no event), sent as the changes are (Poisson, ${cfg.rate}/s per instance, ${cfg.stepSeconds} s before each accounting step, the streams open), net of the reference: at a low rate each request wakes an idle event loop, which costs several times a request among many. A change pays that too, and more: its store's round trips, its screens' writes and its bus message each wake a process. Wakes: the times each instance's main thread (its event loop) went to sleep and was woken, voluntary context switches from /proc/<pid>/status, net of the reference's rate: a socket read, a timer, an fsync waited for.`,
    '',
    bareTable,
    '',
    '### Holding streams',
    '',
    streamTable,
    '',
    '### Scale-out by CPU accounting',
    '',
    ...(scaleLines.length ? scaleLines : ['(needs a one-instance and a two-instance PostgreSQL setup)']),
    '',
    ...(variantLines.length ? ['### Kept optimisations against their simpler way, same run', '', ...variantLines, ''] : []),
    '### The model against the rate held',
    '',
    modelTable,
    '',
    ...baselineLines,
    '',
    '### Targets',
    '',
    ...verdicts,
    '',
    '### Steps',
    '',
    ...results.flatMap((r) => [stepTable(r), '']),
    `The machine: ${cfg.cpus} cores shared by the server instances, nginx, PostgreSQL, Redis, the load generator and whatever else runs here (other work shows as machine % beyond the processes listed). Rates held on it are noisy; the CPU per change, counted per process, is the figure that holds.`,
  ].join('\n');
  return { targets, markdown, scaleOut };
}

interface ScaleOut {
  one: SetupName;
  two: SetupName;
  rows: { one: number; rate?: number; two: number[]; twoSum: number; work: number; even: number; sameTotal?: number; keptUp: boolean }[];
  hashMs?: number;
  roundRobinMs?: number;
}

// Standalone: node --import tsx bench/capacity.bench.ts
// --render: the text and targets of bench/results/capacity.json again from its figures (no run).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename) && process.argv.includes('--render')) {
  const file = path.join(import.meta.dirname, 'results', 'capacity.json');
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchReport & {
    figures: { mix: MixFigures; setups: SetupResult[]; baseline: Baseline | null; settings: Settings };
  };
  const { targets, markdown } = render(
    stored.figures.mix,
    stored.figures.setups,
    stored.figures.baseline ?? undefined,
    stored.figures.settings,
  );
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
