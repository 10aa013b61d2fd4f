// A discrete-event simulation of a restaurant's door (bench/estimate.bench.ts): tables by size,
// turn times drawn from log-normal distributions, arrivals by weekday and hour with a rush, party
// sizes, parties that give up waiting, called parties that never come, and a host who looks at
// the floor every few minutes and calls everyone a freed table fits at once (seating in bursts).
//
// The simulation decides; the product only hears what happened (the `Door` hooks), as it would at
// a real venue. The oracle copies the observable state, draws everything hidden again (when each
// busy table frees, who will leave, who will show up, future arrivals) and runs the same rules
// forward many times: the best forecast anyone could make without seeing the future.
import { bandOf } from '@vez/contract';
import { seededRandom } from '../../apps/server/src/lib/seeded-random.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface Scenario {
  name: string;
  mode: 'basic' | 'advanced';
  tables: { size: number; count: number }[];
  /** Hours of the day (UTC) when parties arrive; the host works until the list is empty. */
  open: number;
  close: number;
  /** Parties per hour at this weekday (0 = Sunday) and time of day (hours, fractional). */
  arrivals: (weekday: number, hour: number) => number;
  partySizes: [size: number, weight: number][];
  /** Median turn time by party size, minutes; log-normal with `turnSigma`. */
  turnMedian: (size: number) => number;
  turnSigma: number;
  /** Share of parties who give up if not called, after an exponential patience of `patienceMean` minutes. */
  leavers: number;
  patienceMean: number;
  /** Share of called parties who never come; the host marks them after the hold window. */
  noShows: number;
  holdMinutes: number;
  /** Minutes between two looks at the floor (uniform). */
  rounds: [number, number];
  /** Minutes from the call to the party at the door (uniform). */
  walk: [number, number];
  /** The simulation's seed offset (added to BENCH_ESTIMATE_SEED): each scenario draws its own days. */
  seed: number;
  /**
   * Held out (bench/README.md): no constant of the product is tuned on these scenarios, and their
   * results are reported apart from the training ones.
   */
  heldOut?: boolean;
  /** Held-out variants (bench/lib/estimate-scenarios.ts); absent in the training scenarios. */
  /** Share of waiting parties the host passes over at a look, to seat them after the others. */
  outOfOrder?: number;
  /** Two free tables pushed together for a big party that has waited and finds no table of its own. */
  pushTogether?: { fromSize: number; afterMinutes: number };
  /** The share who give up grows with the quote shown: `base + perMinute × quote`, at most `max`. */
  walkAway?: { base: number; perMinute: number; max: number };
  /** Booked tables: bookings a day, their sizes, booked between `from` and `to` (hours), arriving `early`-`late` minutes around it. */
  reservations?: { perDay: number; sizes: [size: number, weight: number][]; from: number; to: number; early: number; late: number };
  /** A share of the host's call and seat taps come minutes after the fact (uniform ranges, minutes). */
  lateTaps?: { share: number; call: [number, number]; seat: [number, number] };
}

/** A booked table: the host sees the book (`at`, `size`), not when the party will arrive. */
export interface Booking {
  at: number;
  size: number;
  /** Hidden: when the party is at the door. */
  arriveAt: number;
  seated: boolean;
}

/** The benchmarks' seedable generator: the product's own (apps/server/src/lib/seeded-random.ts). */
export const rng = seededRandom;

const uniform = (r: () => number, [a, b]: [number, number]) => a + (b - a) * r();
function normal(r: () => number): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}
/** An exponential draw of mean `mean` (a Poisson process's gap): the simulation's and the capacity driver's. */
export const exponential = (r: () => number, mean: number) => -Math.log(Math.max(r(), 1e-12)) * mean;

function pick(r: () => number, weighted: [number, number][]): number {
  const total = weighted.reduce((s, [, w]) => s + w, 0);
  let x = r() * total;
  for (const [v, w] of weighted) if ((x -= w) <= 0) return v;
  return weighted[weighted.length - 1]![0];
}

export function turnTime(s: Scenario, r: () => number, size: number): number {
  return s.turnMedian(size) * Math.exp(s.turnSigma * normal(r)) * MINUTE;
}

/**
 * What is left of a turn that has lasted `elapsed` ms already, drawn exactly from the log-normal
 * turn of the party at the table conditioned on being longer than that (inverse transform in the
 * upper tail: z is drawn above z0 = ln(elapsed / median) / σ). No fallback, however old the table.
 */
export function remainingTurn(s: Scenario, r: () => number, partySize: number, elapsed: number): number {
  const median = s.turnMedian(partySize) * MINUTE;
  if (elapsed <= 0) return turnTime(s, r, partySize);
  const z0 = Math.log(elapsed / median) / s.turnSigma;
  const tail = upperTail(z0);
  // Beyond double precision (z0 above 37) the excess over z0 is exponential with rate z0: the tail's limit.
  const z = tail > 0 ? upperTailInverse(tail * (1 - r())) : z0 + exponential(r, 1) / z0;
  return Math.max(0, median * Math.exp(s.turnSigma * Math.max(z, z0)) - elapsed);
}

/** P(Z > z) for a standard normal, to about 1e-7 relative error in either tail (Numerical Recipes' erfc). */
export function upperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const erfc = t * Math.exp(-x * x + poly);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** The z with P(Z > z) = q: Acklam's rational approximation, then Newton steps on the tail itself. */
export function upperTailInverse(q: number): number {
  const p = Math.min(Math.max(q, Number.MIN_VALUE), 1 - 1e-16);
  let z = -acklam(p);
  for (let i = 0; i < 3; i++) {
    const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
    if (density === 0) break;
    z += (upperTail(z) - p) / density;
  }
  return z;
}

/** Acklam's inverse of the standard normal distribution function (relative error 1.15e-9). */
function acklam(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (u: number) => {
    const q = Math.sqrt(-2 * Math.log(u));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  };
  const low = 0.02425;
  if (p < low) return tail(p);
  if (p > 1 - low) return -tail(1 - p);
  const q = p - 0.5;
  const rr = q * q;
  return (
    ((((((a[0]! * rr + a[1]!) * rr + a[2]!) * rr + a[3]!) * rr + a[4]!) * rr + a[5]!) * q) /
    (((((b[0]! * rr + b[1]!) * rr + b[2]!) * rr + b[3]!) * rr + b[4]!) * rr + 1)
  );
}

export interface Table {
  size: number;
  band: number;
  /** The size of the party at it (seen by the host). */
  partySize: number;
  /** When its party was seated (seen by everyone) and when it will leave (hidden). */
  seatedAt: number;
  freeAt: number;
  /** Held for a called party. */
  heldFor: number | null;
}

export interface Party {
  id: number;
  size: number;
  band: number;
  joinedAt: number;
  /** Hidden: gives up at this time if still waiting (Infinity: never). */
  leaveAt: number;
  /** Set when called; hidden: at the door at `arriveAt`, or never (no-show). */
  calledAt: number | null;
  arriveAt: number;
  noShow: boolean;
  table: Table | null;
  /** A second table pushed against the first one (Scenario.pushTogether). */
  extra: Table | null;
  /** When it truly sat down (the console may hear of it later: Scenario.lateTaps). */
  seatedAt: number | null;
  /** The quote it was shown at join, when the door returned one (Scenario.walkAway). */
  quoted: number | null;
}

/** The chance a party gives up if not called in time (after an exponential patience). */
export function leaverShare(s: Scenario, p: Pick<Party, 'quoted'>): number {
  if (!s.walkAway) return s.leavers;
  const { base, perMinute, max } = s.walkAway;
  return Math.min(max, base + perMinute * (p.quoted ?? 0));
}

/** What the venue's door tells the product (and the other estimators) as it happens. */
export interface Door {
  /** Returns the quote the party was shown (minutes), if any. */
  join(p: Party, ahead: { waiting: Party[]; called: Party[] }): Promise<number | null | void> | number | null | void;
  call(p: Party): Promise<void> | void;
  seat(p: Party): Promise<void> | void;
  noShow(p: Party): Promise<void> | void;
  leave(p: Party): Promise<void> | void;
}

/** A table fits a party in advanced mode by band; in basic mode the smallest table it fits, at most two seats spare. */
export function fits(s: Scenario, t: Pick<Table, 'band' | 'size'>, p: Pick<Party, 'band' | 'size'>): boolean {
  return s.mode === 'advanced' ? t.band === p.band : t.size >= p.size && t.size <= p.size + SPARE_SEATS;
}
/** Basic mode: a host gives a party a table with at most two seats spare (the product's rule too, docs/product.md §2). */
const SPARE_SEATS = 2;

export function tablesOf(s: Scenario): Table[] {
  const out: Table[] = [];
  for (const { size, count } of s.tables)
    for (let i = 0; i < count; i++) out.push({ size, band: bandOf(size), partySize: 0, seatedAt: 0, freeAt: 0, heldFor: null });
  return out.sort((a, b) => a.size - b.size);
}

/** One venue's state during a service: what the host sees plus what only the simulation knows. */
export class Floor {
  waiting: Party[] = [];
  called: Party[] = [];
  nextRound: number;
  /** The host's last look (the opening before the first one). */
  lastRound: number;
  nextArrival: number;
  /** Today's book (Scenario.reservations). */
  bookings: Booking[] = [];
  /** The bench's look at the waiting parties every `every` ms (re-quotes); draws nothing, keeps nothing busy. */
  sampler: { every: number; next: number; run: () => Promise<void> } | null = null;
  /** Console taps still to come (Scenario.lateTaps), in time order. */
  taps: { at: number; run: () => Promise<void> | void }[] = [];
  private nextId: number;

  constructor(
    readonly s: Scenario,
    readonly r: () => number,
    readonly tables: Table[],
    public now: number,
    /** Midnight UTC of the service day. */
    readonly day: number,
    firstId = 1,
  ) {
    this.nextRound = now + uniform(r, s.rounds) * MINUTE;
    this.lastRound = now;
    this.nextId = firstId;
    this.nextArrival = this.drawArrival(now);
    if (s.reservations) this.bookings = this.drawBook(s.reservations);
  }

  /** The day's bookings, on the quarter hour, each party arriving a little early or late. */
  private drawBook(book: NonNullable<Scenario['reservations']>): Booking[] {
    const out: Booking[] = [];
    const quarters = Math.max(1, Math.round((book.to - book.from) * 4));
    for (let i = 0; i < book.perDay; i++) {
      const at = this.day + (book.from + Math.floor(this.r() * quarters) / 4) * HOUR;
      const size = pick(this.r, book.sizes);
      out.push({ at, size, arriveAt: at + uniform(this.r, [-book.early, book.late]) * MINUTE, seated: false });
    }
    return out.sort((a, b) => a.at - b.at);
  }

  get closesAt(): number {
    return this.day + this.s.close * HOUR;
  }

  /** The next arrival after `t` by thinning a Poisson process (rate per hour at each moment). */
  drawArrival(t: number): number {
    const weekday = new Date(this.day).getUTCDay();
    const peak = 80;
    for (;;) {
      t += exponential(this.r, HOUR / peak);
      if (t >= this.closesAt) return Infinity;
      const hour = (t - this.day) / HOUR;
      if (this.r() * peak < this.s.arrivals(weekday, hour)) return t;
    }
  }

  newParty(t: number): Party {
    const size = pick(this.r, this.s.partySizes);
    const leaver = this.r() < this.s.leavers;
    return {
      id: this.nextId++,
      size,
      band: bandOf(size),
      joinedAt: t,
      leaveAt: leaver ? t + exponential(this.r, this.s.patienceMean * MINUTE) : Infinity,
      calledAt: null,
      arriveAt: Infinity,
      noShow: false,
      table: null,
      extra: null,
      seatedAt: null,
      quoted: null,
    };
  }

  get busy(): boolean {
    return (
      this.waiting.length > 0 ||
      this.called.length > 0 ||
      this.nextArrival < Infinity ||
      this.taps.length > 0 ||
      this.bookings.some((b) => !b.seated)
    );
  }

  /** The next thing that happens: an arrival, a party giving up, a late tap, or the host's next look. */
  nextEventAt(): number {
    let t = Math.min(this.nextArrival, this.nextRound);
    if (this.taps.length > 0 && this.taps[0]!.at < t) t = this.taps[0]!.at;
    if (this.sampler && this.sampler.next < t) t = this.sampler.next;
    for (const p of this.waiting) if (p.leaveAt < t) t = p.leaveAt;
    return t;
  }

  /** A console tap: now, or minutes later (Scenario.lateTaps) when the host is busy. */
  private tap(kind: 'call' | 'seat', run: () => Promise<void> | void): Promise<void> | void {
    const late = this.s.lateTaps;
    if (!late || this.r() >= late.share) return run();
    this.deferTap(this.now + uniform(this.r, late[kind]) * MINUTE, run);
  }

  private deferTap(at: number, run: () => Promise<void> | void): void {
    let i = this.taps.length;
    while (i > 0 && this.taps[i - 1]!.at > at) i--;
    this.taps.splice(i, 0, { at, run });
  }

  /**
   * Runs until `until` or until `stop` says so after an event (the oracle stops when its party is
   * seated). Calls the door's hooks for what happens.
   */
  async run(door: Door | null, until = Infinity, stop?: () => boolean): Promise<void> {
    while (this.busy) {
      const t = this.nextEventAt();
      if (t > until) return;
      this.now = t;
      if (this.taps.length > 0 && t === this.taps[0]!.at) {
        await this.taps.shift()!.run();
      } else if (t === this.nextArrival) {
        const p = this.newParty(t);
        this.nextArrival = this.drawArrival(t);
        const ahead = { waiting: [...this.waiting], called: [...this.called] };
        this.waiting.push(p);
        const quoted = await door?.join(p, ahead);
        if (this.s.walkAway) {
          // The diner decides on the quote it was shown whether it may give up.
          p.quoted = typeof quoted === 'number' ? quoted : null;
          const leaver = this.r() < leaverShare(this.s, p);
          p.leaveAt = leaver ? t + exponential(this.r, this.s.patienceMean * MINUTE) : Infinity;
        }
      } else if (t === this.nextRound) {
        await this.round(door);
        this.lastRound = t;
        this.nextRound = t + uniform(this.r, this.s.rounds) * MINUTE;
      } else if (this.sampler && t === this.sampler.next) {
        this.sampler.next += this.sampler.every;
        await this.sampler.run();
      } else {
        const p = this.waiting.find((w) => w.leaveAt === t)!;
        this.waiting.splice(this.waiting.indexOf(p), 1);
        await door?.leave(p);
      }
      if (stop?.()) return;
    }
  }

  /** The host's look at the floor: seat who came, mark who did not, call who fits a free table. */
  private async round(door: Door | null): Promise<void> {
    const t = this.now;
    for (const p of [...this.called]) {
      if (!p.noShow && p.arriveAt <= t) {
        this.called.splice(this.called.indexOf(p), 1);
        p.seatedAt = t;
        const turn = turnTime(this.s, this.r, p.size);
        for (const table of [p.table!, p.extra].filter((x): x is Table => x !== null)) {
          table.heldFor = null;
          table.seatedAt = t;
          table.partySize = p.size;
          table.freeAt = t + turn;
        }
        if (door) await this.tap('seat', () => door.seat(p));
        this.onSeated?.(p);
      } else if (p.noShow && t >= p.calledAt! + this.s.holdMinutes * MINUTE) {
        this.called.splice(this.called.indexOf(p), 1);
        p.table!.heldFor = null;
        if (p.extra) p.extra.heldFor = null;
        await door?.noShow(p);
      }
    }
    this.seatBookings(t);
    for (const p of this.lookOrder()) {
      const table = this.tables.find((x) => this.isFree(x, t) && fits(this.s, x, p));
      const pair = table ? null : this.pushedTogether(p, t);
      if (!table && !pair) continue;
      const [first, extra] = table ? [table, null] : pair!;
      first.heldFor = p.id;
      if (extra) extra.heldFor = p.id;
      p.table = first;
      p.extra = extra;
      p.noShow = this.r() < this.s.noShows;
      this.waiting.splice(this.waiting.indexOf(p), 1);
      this.called.push(p);
      const call = () => {
        // The diner hears of it at the tap, and walks from there.
        p.calledAt = this.now;
        p.arriveAt = p.noShow ? Infinity : this.now + uniform(this.r, this.s.walk) * MINUTE;
        return door?.call(p);
      };
      p.calledAt = t;
      p.arriveAt = Infinity;
      await (door ? this.tap('call', call) : call());
    }
  }

  private isFree(x: Table, t: number): boolean {
    return x.heldFor === null && x.freeAt <= t;
  }

  /** The waiting parties in the order the host goes through them (Scenario.outOfOrder: some passed over). */
  private lookOrder(): Party[] {
    const share = this.s.outOfOrder;
    if (!share) return [...this.waiting];
    const first: Party[] = [];
    const after: Party[] = [];
    for (const p of this.waiting) (this.r() < share ? after : first).push(p);
    return [...first, ...after];
  }

  /** Two free tables pushed together for a big party that has waited (Scenario.pushTogether): the fewest spare seats. */
  private pushedTogether(p: Party, t: number): [Table, Table] | null {
    const push = this.s.pushTogether;
    if (!push || p.size < push.fromSize || t - p.joinedAt < push.afterMinutes * MINUTE) return null;
    const free = this.tables.filter((x) => this.isFree(x, t));
    let best: [Table, Table] | null = null;
    for (let i = 0; i < free.length; i++)
      for (let j = i + 1; j < free.length; j++) {
        const seats = free[i]!.size + free[j]!.size;
        if (!fits(this.s, { size: seats, band: bandOf(seats) }, p)) continue;
        if (!best || seats < best[0].size + best[1].size) best = [free[i]!, free[j]!];
      }
    return best;
  }

  /** Booked parties at the door take the smallest free table they fit, before the waitlist (the product never hears of them). */
  private seatBookings(t: number): void {
    for (const b of this.bookings) {
      if (b.seated || b.arriveAt > t) continue;
      const table = this.tables.find((x) => this.isFree(x, t) && fits(this.s, x, { size: b.size, band: bandOf(b.size) }));
      if (!table) continue;
      b.seated = true;
      table.seatedAt = t;
      table.partySize = b.size;
      table.freeAt = t + turnTime(this.s, this.r, b.size);
    }
  }

  onSeated?: (p: Party) => void;

  /**
   * The oracle's copy: the same observable state (tables' parties and since when, who waits and
   * since when, who was called), everything hidden drawn again from the true distributions,
   * conditioned on what has been seen, with a generator of its own.
   */
  imagine(r: () => number): Floor {
    const s = this.s;
    const now = this.now;
    const tables = this.tables.map((t) => ({ ...t }));
    for (const t of tables) {
      if (t.heldFor === null && t.seatedAt > 0 && t.freeAt > now) {
        // By the party at it (the host sees it), however long it has sat.
        t.freeAt = now + remainingTurn(s, r, t.partySize, now - t.seatedAt);
      }
      // A table seen free stays free; a held one frees when its party is seated or marked.
    }
    const copy = new Floor(s, r, tables, now, this.day, 1_000_000);
    copy.bookings = this.bookings.map((b) => {
      if (b.seated || b.arriveAt <= now || !s.reservations) return { ...b };
      // Not at the door yet: uniform over what is left of its arrival window.
      const earliest = Math.max(now, b.at - s.reservations.early * MINUTE);
      return { ...b, arriveAt: earliest + r() * Math.max(0, b.at + s.reservations.late * MINUTE - earliest) };
    });
    const byId = new Map<number, Party>();
    copy.waiting = this.waiting.map((p) => {
      // Still here after waiting `e`: a leaver with probability q·e^(−e/m) / (q·e^(−e/m) + 1 − q).
      const e = (now - p.joinedAt) / MINUTE;
      const q = leaverShare(s, p);
      const keep = q * Math.exp(-e / s.patienceMean);
      const leaver = r() < keep / (keep + 1 - q);
      const copyP = { ...p, leaveAt: leaver ? now + exponential(r, s.patienceMean * MINUTE) : Infinity };
      byId.set(p.id, copyP);
      return copyP;
    });
    copy.called = this.called.map((p) => {
      const table = tables[this.tables.indexOf(p.table!)]!;
      const extra = p.extra ? tables[this.tables.indexOf(p.extra)]! : null;
      const e = now - p.calledAt!;
      // Not at the door yet after `e`: a no-show, or still walking.
      const walkSpan = (s.walk[1] - s.walk[0]) * MINUTE;
      const stillWalking = Math.max(0, Math.min(1, (s.walk[1] * MINUTE - e) / walkSpan));
      const arrived = p.arriveAt <= now && !p.noShow; // seen at the door: seated at the next look
      let noShow = false;
      let arriveAt = p.arriveAt;
      if (!arrived) {
        const pNo = s.noShows / (s.noShows + (1 - s.noShows) * stillWalking);
        noShow = r() < pNo;
        const earliest = Math.max(now, p.calledAt! + s.walk[0] * MINUTE);
        arriveAt = noShow ? Infinity : earliest + r() * Math.max(0, p.calledAt! + s.walk[1] * MINUTE - earliest);
      }
      const copyP = { ...p, noShow, arriveAt, table, extra };
      byId.set(p.id, copyP);
      return copyP;
    });
    // The host's next look: from the last one, a gap drawn uniformly, conditioned on being still to come.
    const earliest = Math.max(now, this.lastRound + s.rounds[0] * MINUTE);
    copy.nextRound = earliest + r() * Math.max(0, this.lastRound + s.rounds[1] * MINUTE - earliest);
    copy.lastRound = this.lastRound;
    copy.nextArrival = this.nextArrival === Infinity ? Infinity : copy.drawArrival(now);
    copy.byId = byId;
    return copy;
  }

  byId?: Map<number, Party>;
}

/**
 * The oracle's forecast for a waiting party, from now (its join, or a later look at its page):
 * `runs` imagined futures from the real state; the median wait left in those in which it is
 * seated, and the 10th to 90th percentile.
 */
export async function oracleForecast(
  floor: Floor,
  party: Party,
  runs: number,
  seed: number,
): Promise<{ time: number; low: number; high: number } | null> {
  const waits: number[] = [];
  for (let i = 0; i < runs; i++) {
    const copy = floor.imagine(rng(seed * 7919 + i));
    const me = copy.byId!.get(party.id)!;
    me.leaveAt = Infinity; // its forecast is of the wait if it stays: only seated parties are scored
    let seatedAt: number | null = null;
    copy.onSeated = (p) => {
      if (p.id === party.id) seatedAt = copy.now;
    };
    await copy.run(null, Infinity, () => seatedAt !== null);
    if (seatedAt !== null) waits.push((seatedAt - floor.now) / MINUTE);
  }
  if (waits.length === 0) return null;
  waits.sort((a, b) => a - b);
  const at = (q: number) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!;
  const time = at(0.5);
  return { time: Math.max(1, Math.round(time)), low: Math.floor(at(0.1)), high: Math.ceil(at(0.9)) };
}
