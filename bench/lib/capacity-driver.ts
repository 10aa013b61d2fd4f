// The load generator of bench/capacity.bench.ts: joins, calls and seats through the product's HTTP
// API at a given rate, spread over the venues in proportion to their queues, and the time from
// each change to the moment every screen of its venue (diner pages and host consoles, held by the
// client processes of capacity-clients.ts) has received it.
//
// Changes at one venue go one after the other: the next is sent once the previous has reached
// every screen. Without that, a screen's next message could be a refresh that began before the
// change was committed, and would pass for its delivery. A change that falls due while its venue
// is still busy waits, and its latency is counted from when it fell due as well as from when it was
// sent (the verdict uses the former: it can only make the figure worse).
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { HOST_SESSION_COOKIE } from '@vez/contract';
import { shuffleInPlace, weightedPicker } from './capacity-mix.js';
import { exponential } from './restaurant-sim.js';

const now = () => performance.timeOrigin + performance.now();

export interface DriverVenue {
  id: string;
  /** The index the client processes know the venue by. */
  index: number;
  /** Its share of changes (its queue length). */
  weight: number;
  client: ChildProcess;
  /** Waiting parties without a page open, oldest first: the host calls these. */
  waiting: string[];
  called: string[];
}

type Kind = 'join' | 'call' | 'seat';

interface Change {
  id: number;
  venue: DriverVenue;
  kind: Kind;
  dueAt: number;
  sentAt: number;
  answeredAt: number;
  deliveredAt: number | null;
  status: number;
  timedOut: boolean;
  /** No open screen at the venue (every page of a tiny venue closed): not in the latency figures. */
  noScreen: boolean;
  /** Fell due while the venue's previous change was still on its way. */
  queued: boolean;
}

export interface StepResult {
  rate: number;
  seconds: number;
  scheduled: number;
  completed: number;
  /** Changes actually sent. */
  sent: number;
  /** Changes the server answered 200/201 before the step's drain ended (the CPU accounting of bench/capacity.bench.ts divides by this). */
  answeredOk: number;
  /** Changes per second actually sent. */
  achievedRate: number;
  byKind: Record<Kind, number>;
  errors: number;
  errorStatuses: Record<string, number>;
  timedOut: number;
  /** Scheduled but never sent before the step's drain ended (the generator or the server fell behind). */
  unsent: number;
  /** Changes that had to wait for their venue's previous one. */
  waited: number;
  /** Latency from sending the request to the last screen, ms. */
  sendP50: number;
  sendP99: number;
  /** Latency from when the change fell due (waiting for the venue's previous one included), ms. */
  dueP50: number;
  dueP99: number;
  dueMax: number;
  /** HTTP answer time of the change requests, ms. */
  answerP50: number;
  answerP99: number;
  /** How late the generator sent changes whose venue was free (its own lag), p99 ms. */
  lagP99: number;
  /** The slowest changes, to see what they have in common: when in the step (s), what, where. */
  slowest: { atS: number; kind: Kind; venue: number; latencyMs: number; answerMs: number }[];
  /** When the step began (epoch ms), to line the slowest up with other events. */
  startedAt: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const r1 = (x: number) => Math.round(x * 10) / 10;

export class CapacityDriver {
  private readonly agent: http.Agent;
  private nextId = 1;
  private phone = 0;
  private readonly inFlight = new Map<number, { change: Change; finish: () => void; timer: NodeJS.Timeout }>();
  private readonly busy = new Set<DriverVenue>();
  private readonly backlog = new Map<DriverVenue, Change[]>();
  private readonly turns = new Map<DriverVenue, number>();
  private readonly pick: () => number;

  constructor(
    private readonly port: number,
    private readonly cookie: string,
    private readonly venues: DriverVenue[],
    clients: ChildProcess[],
    private readonly random: () => number,
    private readonly timeoutMs = 5000,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    this.pick = weightedPicker(
      venues.map((v) => v.weight),
      random,
    );
    for (const client of clients)
      client.on('message', (m: { done?: number; at?: number | null }) => {
        if (m.done === undefined) return;
        const f = this.inFlight.get(m.done);
        if (!f) return;
        if (m.at === null || m.at === undefined) f.change.noScreen = true;
        f.change.deliveredAt = m.at ?? f.change.sentAt;
        f.finish();
      });
  }

  private request(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve) => {
      const headers: Record<string, string | number> = { cookie: `${HOST_SESSION_COOKIE}=${this.cookie}` };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      } else headers['content-length'] = 0;
      const req = http.request({ host: '127.0.0.1', port: this.port, method, path, headers, agent: this.agent }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
        res.on('error', () => resolve({ status: 0, text: '' }));
      });
      req.on('error', () => resolve({ status: 0, text: '' }));
      req.end(body);
    });
  }

  /**
   * The venue's next change, as its host and its diners would make it: join, call, seat in turn,
   * each venue starting at a random point of the turn (most venues see one or two changes a step:
   * all starting with a join would make the mix nearly all joins).
   */
  private kindFor(v: DriverVenue): Kind {
    const turn = this.turns.get(v) ?? Math.floor(this.random() * 3);
    this.turns.set(v, turn + 1);
    const wanted: Kind = (['join', 'call', 'seat'] as const)[turn % 3]!;
    if (wanted === 'seat' && v.called.length > 0) return 'seat';
    if ((wanted === 'call' || wanted === 'seat') && v.waiting.length > 0) return 'call';
    return 'join';
  }

  private send(change: Change): void {
    const v = change.venue;
    this.busy.add(v);
    change.kind = this.kindFor(v);
    const target = change.kind === 'call' ? v.waiting.shift()! : change.kind === 'seat' ? v.called.shift()! : '';
    change.sentAt = now();
    let answered = false;
    let delivered = false;
    let closed = false;
    const finish = () => {
      if (closed || !answered || !delivered) return;
      closed = true;
      clearTimeout(this.inFlight.get(change.id)?.timer);
      this.inFlight.delete(change.id);
      this.release(v);
    };
    const timer = setTimeout(() => {
      change.timedOut = true;
      v.client.send({ cmd: 'disarm', id: change.id });
      delivered = true;
      answered = true;
      finish();
    }, this.timeoutMs);
    this.inFlight.set(change.id, {
      change,
      timer,
      finish: () => {
        delivered = true;
        finish();
      },
    });
    v.client.send({ cmd: 'arm', id: change.id, venue: v.index, t0: change.sentAt });
    const path = change.kind === 'join' ? `/api/waitlists/${v.id}/create` : `/api/host/venues/${v.id}/entries/${target}/${change.kind}`;
    const body = change.kind === 'join' ? JSON.stringify(this.joinBody(v.id)) : undefined;
    void this.request('POST', path, body).then(({ status, text }) => {
      change.status = status;
      change.answeredAt = now();
      const ok = status === 200 || status === 201;
      if (ok && change.kind === 'join') v.waiting.push((JSON.parse(text) as { _id: string })._id);
      else if (ok && change.kind === 'call') v.called.push(target);
      else if (!ok && change.kind !== 'join') (change.kind === 'call' ? v.waiting : v.called).unshift(target);
      if (!ok && !change.timedOut) {
        // No change, no message: stop waiting for one.
        v.client.send({ cmd: 'disarm', id: change.id });
        delivered = true;
      } else if (!change.timedOut) v.client.send({ cmd: 'answered', id: change.id });
      answered = true;
      finish();
    });
  }

  private joinBody(venueId: string) {
    this.phone += 1;
    return {
      customer: { name: 'Ana Souza', phone: `+55 11 9${String(50_000_000 + this.phone)}`, email: '' },
      venue: venueId,
      origin: { label: 'Widget' },
      partySize: 1 + (this.phone % 6),
      benefits: '',
      logs: { actionType: 'Add' },
      data: { origin: 'Waitlist widget' },
      sendSms: true,
      note: '',
    };
  }

  private release(v: DriverVenue): void {
    this.busy.delete(v);
    const queued = this.backlog.get(v);
    const next = queued?.shift();
    if (next) this.send(next);
  }

  private dispatch(change: Change): void {
    if (this.busy.has(change.venue)) {
      change.queued = true;
      const queued = this.backlog.get(change.venue) ?? [];
      queued.push(change);
      this.backlog.set(change.venue, queued);
    } else this.send(change);
  }

  /**
   * Poisson arrivals at `rate` per second for `seconds`, then up to `drainMs` for the last ones to
   * arrive. Every change scheduled is in the figures: one never sent counts as failed.
   */
  async step(rate: number, seconds: number, drainMs = 6000): Promise<StepResult> {
    const start = now() + 20;
    const end = start + seconds * 1000;
    const changes: Change[] = [];
    let due = start;
    for (;;) {
      due += exponential(this.random, 1000 / rate);
      if (due >= end) break;
      changes.push(this.change(this.venues[this.pick()]!, due));
    }
    return this.play(rate, seconds, changes, start, drainMs);
  }

  /**
   * One change at every venue, in a random order, Poisson at `rate`: what a server that has run a
   * while has seen (each venue's row, estimate and queue kept, its statements' pages cached). A
   * warm-up of the mix alone leaves many of the small venues untouched for minutes.
   */
  async everyVenue(rate: number, drainMs = 6000): Promise<StepResult> {
    const order = [...this.venues];
    shuffleInPlace(order, this.random);
    const start = now() + 20;
    let due = start;
    const changes = order.map((v) => this.change(v, (due += exponential(this.random, 1000 / rate))));
    return this.play(rate, (due - start) / 1000, changes, start, drainMs);
  }

  private change(venue: DriverVenue, dueAt: number): Change {
    return {
      id: this.nextId++,
      venue,
      kind: 'join',
      dueAt,
      sentAt: 0,
      answeredAt: 0,
      deliveredAt: null,
      status: 0,
      timedOut: false,
      noScreen: false,
      queued: false,
    };
  }

  /** Sends `changes` when due, then waits up to `drainMs` for the last ones. */
  private async play(rate: number, seconds: number, changes: Change[], start: number, drainMs: number): Promise<StepResult> {
    let i = 0;
    while (i < changes.length) {
      const t = now();
      while (i < changes.length && changes[i]!.dueAt <= t) this.dispatch(changes[i++]!);
      if (i < changes.length) await new Promise((r) => setTimeout(r, Math.max(0, Math.min(5, changes[i]!.dueAt - now()))));
    }
    const drainEnd = now() + drainMs;
    while ((this.inFlight.size > 0 || [...this.backlog.values()].some((q) => q.length > 0)) && now() < drainEnd)
      await new Promise((r) => setTimeout(r, 20));
    // What has not been sent by now never will be in this step.
    for (const q of this.backlog.values()) q.length = 0;
    return this.summarise(rate, seconds, changes, start);
  }

  /**
   * Bare requests (`GET /api/health/live`: the same server and hooks, no store, no event), Poisson at
   * `rate` for `seconds`, as the changes are sent: what the machine charges an instance for a
   * request at that rate alone (waking an idle event loop costs far more than a request among
   * many). Resolves once each is answered; answers how many were 200.
   */
  async bareRequests(rate: number, seconds: number): Promise<{ sent: number; ok: number }> {
    const start = now() + 20;
    const end = start + seconds * 1000;
    const answers: Promise<boolean>[] = [];
    let due = start + exponential(this.random, 1000 / rate);
    while (due < end) {
      const wait = due - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(5, wait)));
      if (now() < due) continue;
      answers.push(this.request('GET', '/api/health/live').then(({ status }) => status === 200));
      due += exponential(this.random, 1000 / rate);
    }
    const ok = (await Promise.all(answers)).filter(Boolean).length;
    return { sent: answers.length, ok };
  }

  /** Waits for changes still in flight (after a step that did not drain in time). */
  async settle(maxMs = 10_000): Promise<void> {
    const until = now() + maxMs;
    while (this.inFlight.size > 0 && now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  private summarise(rate: number, seconds: number, changes: Change[], start: number): StepResult {
    const sent = changes.filter((c) => c.sentAt > 0);
    const ok = sent.filter((c) => !c.timedOut && (c.status === 200 || c.status === 201));
    const measured = ok.filter((c) => !c.noScreen && c.deliveredAt !== null);
    const errors = sent.filter((c) => c.answeredAt > 0 && c.status !== 200 && c.status !== 201);
    const errorStatuses: Record<string, number> = {};
    for (const c of errors) errorStatuses[`${c.kind} ${c.status}`] = (errorStatuses[`${c.kind} ${c.status}`] ?? 0) + 1;
    // A change that failed in any way counts as infinitely late: p99 cannot hide it.
    const failed = changes.length - measured.length - ok.filter((c) => c.noScreen).length;
    const late = Array.from({ length: Math.max(0, failed) }, () => Infinity);
    const send = [...measured.map((c) => c.deliveredAt! - c.sentAt), ...late].sort((a, b) => a - b);
    const dueL = [...measured.map((c) => c.deliveredAt! - c.dueAt), ...late].sort((a, b) => a - b);
    const answers = sent
      .filter((c) => c.answeredAt > 0)
      .map((c) => c.answeredAt - c.sentAt)
      .sort((a, b) => a - b);
    const lags = sent
      .filter((c) => !c.queued)
      .map((c) => c.sentAt - c.dueAt)
      .sort((a, b) => a - b);
    const byKind: Record<Kind, number> = { join: 0, call: 0, seat: 0 };
    for (const c of sent) byKind[c.kind] += 1;
    return {
      rate,
      seconds,
      scheduled: changes.length,
      completed: measured.length,
      sent: sent.length,
      answeredOk: sent.filter((c) => c.answeredAt > 0 && (c.status === 200 || c.status === 201)).length,
      achievedRate: r1(sent.length / seconds),
      byKind,
      errors: errors.length,
      errorStatuses,
      timedOut: sent.filter((c) => c.timedOut).length,
      unsent: changes.length - sent.length,
      waited: sent.filter((c) => c.queued).length,
      sendP50: r1(percentile(send, 50)),
      sendP99: r1(percentile(send, 99)),
      dueP50: r1(percentile(dueL, 50)),
      dueP99: r1(percentile(dueL, 99)),
      dueMax: r1(dueL.at(-1) ?? NaN),
      answerP50: r1(percentile(answers, 50)),
      answerP99: r1(percentile(answers, 99)),
      lagP99: r1(percentile(lags, 99)),
      slowest: changes
        .map((c) => ({
          atS: r1((c.dueAt - start) / 1000),
          kind: c.kind,
          venue: c.venue.index,
          latencyMs: c.deliveredAt !== null && !c.noScreen ? r1(c.deliveredAt - c.dueAt) : Infinity,
          answerMs: c.answeredAt > 0 ? r1(c.answeredAt - c.sentAt) : Infinity,
        }))
        .sort((a, b) => b.latencyMs - a.latencyMs)
        .slice(0, 8),
      startedAt: Math.round(start),
    };
  }

  close(): void {
    for (const f of this.inFlight.values()) clearTimeout(f.timer);
    this.agent.destroy();
  }
}
