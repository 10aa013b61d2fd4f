import { bandOf } from '@vez/contract';
import { seededRandom } from '../../lib/seeded-random.js';
import { HIGH_QUANTILE, LOW_QUANTILE, MARGIN_MINUTES, residualOf, spreadOf, withResidual } from './calibration.js';
import { TURN_SIGMA, turnSurvival } from './occupancy.js';

/**
 * The floor (docs/decisions/022-wait-estimates.md, "The floor"): when a venue lists its tables
 * (`settings.tables`), the product follows which of them are busy from its own events, and
 * forecasts a waiting party's wait by playing the next seatings forward many times.
 *
 * - **What is followed.** A call means a table that fits the party is free: the one most likely
 *   to have been picked (the smallest free fitting table, the host's habit; a busy one by the
 *   chance its party has left, given how long it has sat). The table is held for the party,
 *   busy from its seat, free again when a called party is marked as not coming.
 * - **What is learned** on the same events, O(1) each: how long a table stays busy by the band of
 *   its party (a busy table given to a party that had been waiting ends a turn: from the seat to
 *   that call), the minutes from a call to the seat (the last ones kept), how often a called party
 *   never comes and when it is marked, and how often waiting parties give up.
 * - **The forecast** copies that state, draws what it cannot know (when each busy table frees,
 *   given its age; who of the parties ahead gives up; when the called ones come, if they do), and
 *   gives each freed table to the first waiting party it fits, in queue order, as the host does.
 *   A table free now (seen free, or freed unseen) seats its party at the host's next look, drawn
 *   from the venue's own looks (the minutes from a party finding a free table to its call), plus
 *   its walk; a turn learned from the calls already holds the look.
 * - **The quote** is the median of the runs. The range is set from the floor's own recent errors
 *   by band (calibration.ts) once it has enough of them; until then, the runs' 10th to 90th
 *   percentile.
 *
 * The state is one small row per venue (`venue_floor`); the forecast reads it and the queue, never
 * the history.
 */

export interface FloorTable {
  seats: number;
  /** Busy since this seat (ms), or null: free or held. */
  busySince: number | null;
  /** The size of the party at it, for its turn. */
  party: number;
  /** The called entry it is held for. */
  heldFor: string | null;
  /** Free since this moment (ms), when an event freed it (a called party marked as not coming); absent when unknown. */
  freeSince?: number | null;
}

export interface FloorState {
  /** The venue's tables as listed when this state began (`seats×count,…`): a new list starts over. */
  layout: string;
  tables: FloorTable[];
  /**
   * By band of the party at the table: the running mean of its turns (minutes) and their count.
   * The mean, not the median: which of several busy tables freed is a guess, and any guess keeps
   * the sum of the turns (each table's busy time is the same whoever is matched to it), not their
   * spread.
   */
  turns: { band: number; mean: number; n: number }[];
  /** Minutes from a call to the seat, newest last. */
  walks: number[];
  /** Share of called parties who never come (running), and minutes from their call to being marked. */
  noShow: number;
  noShowAfter: number;
  /**
   * Waiting parties who give up: the share of waiting parties who do (running), and how long they
   * had waited when they did (minutes, running). Those who give up do so early; a party that has
   * waited long is likely one who stays (a mixture: some leave after an exponential patience, the
   * rest never).
   */
  leaveShare: number;
  patience: number;
  /** The last event, for tables left busy past any turn. */
  at: number;
  /** The venue's mode at its last event: which tables fit a party. */
  mode: FloorMode;
  /**
   * The host's next look at the door (minutes, newest last): from the moment a party and a free
   * table that fits it are both there to its call. Absent in rows stored before it was kept.
   */
  looks?: number[];
  /**
   * The floor's own errors, by band of the party (VENUE_BAND: all of them): the scores of its
   * join quotes against the waits (calibration.ts), newest last. Its range is set from them.
   */
  residuals?: { band: number; ring: readonly number[] }[];
}

export type FloorMode = 'basic' | 'advanced';

/** A table's party never stays longer than this: a table busy since before is taken as free (field figure: longer than any service). */
const STALE_MS = 6 * 60 * 60_000;
/** The turn before a venue has shown one, minutes (field figure: a restaurant's table turn is about an hour). */
const TURN_PRIOR_MINUTES = 60;
/** How fast a band's mean turn follows, once past its first turns (chosen on the training scenarios of bench/estimate.bench.ts). */
const TURN_RATE = 0.05;
/** A log-normal turn's mean over its median (derivation: e^(σ²/2)). */
const MEDIAN_TO_MEAN = Math.exp((TURN_SIGMA * TURN_SIGMA) / 2);
/** Turns a band must have given before its own speaks; until then, the venue's (chosen: a mean of 5 is within about 20 % at σ 0.4). */
const MIN_TURNS = 5;
/**
 * A busy table given to a party that waited at least this long was freed just before the call: a
 * host calls at the next look after a table frees (field figure: a host's look at the floor comes
 * every few minutes; chosen above the longest usual gap between looks).
 */
const WAITED_FOR_TABLE_MS = 6 * 60_000;
/** Call-to-seat minutes kept, and the walk before any was seen (field figure: a remote diner is minutes away). */
const KEPT_WALKS = 32;
const DEFAULT_WALK_MINUTES = 5;
/** Priors before the venue's own: the share of called parties who never come and the minutes before they are marked, the minutes a leaver waits (field figures: a few percent no-shows, a hold of about ten minutes, patience of about twenty). */
const PRIOR_NO_SHOW = 0.05;
const PRIOR_NO_SHOW_AFTER = 10;
const PRIOR_PATIENCE = 20;
/** How fast the no-show share, the leave share, the patience and the minutes to a no-show follow (chosen: about 100, 100, 20 and 10 events remembered). */
const NO_SHOW_RATE = 0.01;
const LEAVE_RATE = 0.01;
const PATIENCE_RATE = 0.05;
const NO_SHOW_AFTER_RATE = 0.1;
/** The forecast speaks once this many turns and walks have been seen (chosen: the priors are gone by then). */
const READY_TURNS = 10;
const READY_WALKS = 5;
/** Guards of the arithmetic: a chance divided by at least this, a uniform draw never 0 under a logarithm. */
const TINY = 1e-9;
const NEVER_ZERO = 1e-12;
/** Looks kept, as the walks. A look longer than LOOK_CAP_MINUTES is the floor's picture being wrong (the table was not free), not the host. */
const KEPT_LOOKS = 32;
const LOOK_CAP_MINUTES = 30;
/** The host's next look before MIN_LOOKS have been seen: a few minutes (field figure: a host glances at the door every few minutes). */
const DEFAULT_LOOK_MINUTES = 3;
const MIN_LOOKS = 5;
/** The floor's calibration by band: this key holds every band's scores (the fallback while a band has few). */
const VENUE_BAND = -1;

export const layoutOf = (tables: readonly { seats: number; count: number }[]): string =>
  [...tables]
    .sort((a, b) => a.seats - b.seats)
    .map((t) => `${t.seats}x${t.count}`)
    .join(',');

export function freshFloor(tables: readonly { seats: number; count: number }[], previous?: FloorState | null): FloorState {
  const list: FloorTable[] = [];
  for (const t of [...tables].sort((a, b) => a.seats - b.seats)) {
    for (let i = 0; i < t.count; i++) list.push({ seats: t.seats, busySince: null, party: t.seats, heldFor: null });
  }
  return {
    layout: layoutOf(tables),
    tables: list,
    turns: previous?.turns.map((t) => ({ ...t })) ?? [],
    walks: previous?.walks.slice() ?? [],
    noShow: previous?.noShow ?? PRIOR_NO_SHOW,
    noShowAfter: previous?.noShowAfter ?? PRIOR_NO_SHOW_AFTER,
    leaveShare: previous?.leaveShare ?? 0,
    patience: previous?.patience ?? PRIOR_PATIENCE,
    at: previous?.at ?? 0,
    mode: previous?.mode ?? 'basic',
  };
}

/** The venue's floor for its listed tables: the kept one, or a fresh one when the list changed. */
export function floorFor(tables: readonly { seats: number; count: number }[], kept: FloorState | null): FloorState | null {
  if (tables.length === 0) return null;
  return kept && kept.layout === layoutOf(tables) ? kept : freshFloor(tables, kept);
}

export function parseFloor(text: string | null | undefined): FloorState | null {
  if (!text) return null;
  try {
    const state = JSON.parse(text) as FloorState;
    if (!Array.isArray(state.tables)) return null;
    return { ...freshFloor([]), ...state };
  } catch {
    return null;
  }
}

/** A table fits a party: in advanced mode, a table of its band; in basic mode, at most two seats spare. */
function fitsPrimary(seats: number, size: number, mode: FloorMode): boolean {
  return mode === 'advanced' ? bandOf(seats) === bandOf(size) : seats >= size && seats <= size + 2;
}

/** The tables a party may be given, smallest first; when none fits the rule, the smallest big enough, or the largest. */
export function fittingTables(tables: readonly { seats: number }[], size: number, mode: FloorMode): number[] {
  const idx = tables.map((_, i) => i);
  const primary = idx.filter((i) => fitsPrimary(tables[i]!.seats, size, mode));
  if (primary.length) return primary;
  const big = idx.filter((i) => tables[i]!.seats >= size);
  if (big.length) {
    const least = Math.min(...big.map((i) => tables[i]!.seats));
    return big.filter((i) => tables[i]!.seats === least);
  }
  const most = Math.max(...tables.map((t) => t.seats));
  return idx.filter((i) => tables[i]!.seats === most);
}

function turnMedian(state: FloorState, partySize: number): number {
  const band = bandOf(partySize);
  const own = state.turns.find((t) => t.band === band);
  if (own && own.n >= MIN_TURNS) return own.mean / MEDIAN_TO_MEAN;
  const seen = state.turns.filter((t) => t.n > 0);
  if (seen.length === 0) return TURN_PRIOR_MINUTES;
  const n = seen.reduce((s, t) => s + t.n, 0);
  return seen.reduce((s, t) => s + t.mean * t.n, 0) / n / MEDIAN_TO_MEAN;
}

function learnTurn(state: FloorState, partySize: number, minutes: number): void {
  const band = bandOf(partySize);
  let row = state.turns.find((t) => t.band === band);
  if (!row) {
    row = { band, mean: TURN_PRIOR_MINUTES * MEDIAN_TO_MEAN, n: 0 };
    state.turns.push(row);
  }
  const rate = Math.max(TURN_RATE, 1 / (row.n + 1));
  row.mean += rate * (minutes - row.mean);
  row.n += 1;
}

/** Tables busy or held past any turn are free: a service ended, or an event was missed. */
function settle(state: FloorState, at: number): void {
  for (const t of state.tables) {
    if (t.busySince !== null && at - t.busySince > STALE_MS) t.busySince = null;
    if (t.heldFor !== null && at - state.at > STALE_MS) t.heldFor = null;
  }
  state.at = Math.max(state.at, at);
}

function chanceFree(state: FloorState, t: FloorTable, at: number): number {
  if (t.heldFor !== null) return 0;
  if (t.busySince === null) return 1;
  return 1 - turnSurvival((at - t.busySince) / 60_000, turnMedian(state, t.party));
}

/** The table a call most likely went to: the first free one that fits, in order of size. */
function pickTable(state: FloorState, size: number, mode: FloorMode, at: number): number | null {
  let best: number | null = null;
  let bestChance = -1;
  let noneBefore = 1;
  for (const i of fittingTables(state.tables, size, mode)) {
    const free = chanceFree(state, state.tables[i]!, at);
    const chance = free * noneBefore;
    // Every fitting table held for another party: none is taken from it.
    if (chance > 0 && chance > bestChance) {
      bestChance = chance;
      best = i;
    }
    noneBefore *= 1 - free;
  }
  return best;
}

export interface FloorParty {
  id: string;
  size: number;
  /** When it joined and when it was called (ms). */
  joinedAt: number;
  calledAt?: number | null;
  /** At its seat: the floor's quote at its join (minutes), when the floor gave it; the floor's range learns from it. */
  quoted?: number | null;
}

/** A party is called: a table that fits it has freed (or was free), and is held for it. */
export function onCall(state: FloorState, party: FloorParty, at: number, mode: FloorMode): void {
  settle(state, at);
  if (state.tables.some((t) => t.heldFor === party.id)) return; // called again: the same table
  const i = pickTable(state, party.size, mode, at);
  if (i === null) return;
  const table = state.tables[i]!;
  if (table.busySince !== null && at - party.joinedAt >= WAITED_FOR_TABLE_MS) {
    learnTurn(state, table.party, (at - table.busySince) / 60_000);
  }
  // A table already free when the party came: the call came at the host's next look.
  if (table.busySince === null && (table.freeSince == null || table.freeSince <= party.joinedAt)) {
    learnLook(state, (at - party.joinedAt) / 60_000);
  }
  delete table.freeSince;
  state.leaveShare += LEAVE_RATE * (0 - state.leaveShare);
  table.busySince = null;
  table.heldFor = party.id;
}

/** A party is seated: its table (held since the call, or the likeliest one) is busy from now. */
export function onSeat(state: FloorState, party: FloorParty, at: number, mode: FloorMode): void {
  settle(state, at);
  let i = state.tables.findIndex((t) => t.heldFor === party.id);
  if (i < 0) {
    i = pickTable(state, party.size, mode, at) ?? -1;
    state.leaveShare += LEAVE_RATE * (0 - state.leaveShare);
  }
  if (party.calledAt != null) {
    state.walks.push(Math.max(0, (at - party.calledAt) / 60_000));
    if (state.walks.length > KEPT_WALKS) state.walks.splice(0, state.walks.length - KEPT_WALKS);
    state.noShow += NO_SHOW_RATE * (0 - state.noShow);
  }
  if (party.quoted != null) learnResidual(state, party.size, residualOf(party.quoted, (at - party.joinedAt) / 60_000));
  if (i < 0) return;
  Object.assign(state.tables[i]!, { busySince: at, party: party.size, heldFor: null });
  delete state.tables[i]!.freeSince;
}

function learnLook(state: FloorState, minutes: number): void {
  if (!(minutes >= 0) || minutes > LOOK_CAP_MINUTES) return;
  const looks = (state.looks ??= []);
  looks.push(minutes);
  if (looks.length > KEPT_LOOKS) looks.splice(0, looks.length - KEPT_LOOKS);
}

/** One more score of the floor's join quote, for the party's band and for the venue (calibration.ts). */
function learnResidual(state: FloorState, size: number, score: number): void {
  const rows = (state.residuals ??= []);
  for (const band of [VENUE_BAND, bandOf(size)]) {
    const row = rows.find((r) => r.band === band);
    if (row) row.ring = withResidual(row.ring, score);
    else rows.push({ band, ring: [score] });
  }
}

/** The floor's spreads for a party of this size: its band's scores once they speak, else the venue's; null before either. */
export function floorSpread(state: FloorState, size: number): { low: number; high: number } | null {
  const rows = state.residuals ?? [];
  const band = bandOf(size);
  return spreadOf(rows.find((r) => r.band === band)?.ring) ?? spreadOf(rows.find((r) => r.band === VENUE_BAND)?.ring);
}

/**
 * A party's entry ends without a seat: a called one frees its table (marked as not coming, or
 * removed); a waiting one that gave up counts toward how often parties leave.
 */
export function onEnd(state: FloorState, party: FloorParty, at: number, gaveUp: boolean): void {
  settle(state, at);
  const table = state.tables.find((t) => t.heldFor === party.id);
  if (table) {
    table.heldFor = null;
    table.freeSince = at;
    if (party.calledAt != null) {
      state.noShow += NO_SHOW_RATE * (1 - state.noShow);
      state.noShowAfter += NO_SHOW_AFTER_RATE * (Math.max(0, (at - party.calledAt) / 60_000) - state.noShowAfter);
    }
    return;
  }
  if (party.calledAt != null) return;
  if (!gaveUp) return; // removed by staff: neither a stay nor a leave
  state.leaveShare += LEAVE_RATE * (1 - state.leaveShare);
  state.patience += PATIENCE_RATE * (Math.max(0, at - party.joinedAt) / 60_000 - state.patience);
}

export const floorReady = (state: FloorState | null): state is FloorState =>
  state !== null && state.turns.reduce((s, t) => s + t.n, 0) >= READY_TURNS && state.walks.length >= READY_WALKS;

/** The standard normal's quantile at `p` in (0, 1) (Acklam's rational approximation, relative error below 1.2e-9). */
function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/**
 * A log-normal turn over its median, drawn by one uniform number: the turns' distribution at
 * TURN_QUANTILES evenly spaced quantiles (derivation: at 1,024 the draws' quantiles are within a
 * thousandth of the distribution's; one table lookup in place of a logarithm, a root, a cosine
 * and an exponential per draw). A constant, worked out once.
 */
const TURN_QUANTILES = 1024;
const TURN_FACTORS = Float64Array.from({ length: TURN_QUANTILES }, (_, k) =>
  Math.exp(TURN_SIGMA * normalQuantile((k + 0.5) / TURN_QUANTILES)),
);

export interface FloorQueue {
  /** The waiting parties in queue order (priority first, then by join). */
  waiting: readonly { size: number; joinedAt?: number }[];
  /** The called parties, each holding its table. */
  called: readonly FloorParty[];
}

/** When a party is seated (ms): the median of the runs, and their 10th and 90th percentiles. */
export interface FloorSeat {
  low: number;
  mid: number;
  high: number;
}

export interface FloorForecast {
  /** Per waiting party; null when it was seated in fewer than a quarter of the runs (it gave up in the others). */
  seats: (FloorSeat | null)[];
  /** With `tail`: what the runs leave to parties who join behind the whole queue (`forecastBehind`). */
  tail?: FloorTail;
}

/**
 * What a whole-queue forecast's runs leave to a party who joins behind everyone
 * (docs/decisions/043-busy-venue-joins.md): per run and table, the moment the table is next free
 * with no party ahead that it fits still waiting (the run's last seat of it, or the moment it
 * found nobody), and whether its party is then called at the host's next look (a table free at
 * the forecast's start, never seated since). A party behind everyone takes nothing from anyone
 * ahead: the floor gives a freed table to the first waiting party it fits, in queue order.
 */
export interface FloorTail {
  runs: number;
  /** Per run × table (run-major), ms. */
  freeAt: Float64Array;
  lookFirst: Uint8Array;
  /** Parties placed behind the queue so far (`forecastBehind`): each one's draws are its own. */
  placed: number;
  seed: number;
  /** The runs themselves, for a kept book to be rebased (`forecastKept`, `rebaseKept`); never in a copy. */
  kept?: KeptRuns;
}

/**
 * A whole-queue forecast's runs, kept so that the book can be brought to a later moment when
 * nothing happened at the venue meanwhile (`rebaseKept`; docs/decisions/047-rebased-books.md):
 * every waiting party's seat in every run, and each run's first moment the venue would have seen.
 * The parties placed behind the queue (`forecastBehind`) add their rows.
 */
export interface KeptRuns {
  /** Per row (the queue's waiting parties in order, then each party placed behind), per run: the seat (ms), NaN when not seated in that run. Row-major, `rows` rows used. */
  times: Float64Array;
  rows: number;
  /**
   * Per run: the first moment something in it would have been seen at the venue, each an event
   * (floor-events.ts): a call, a called party seated or marked as not coming, a waiting party giving up.
   */
  firstEvent: Float64Array;
  /** The parties of the rows and the called ones holding tables: what a run is played again from. */
  waiting: { size: number; joinedAt: number }[];
  called: readonly FloorParty[];
  /** The row of a party, by its id (the queue's, then the joins' as they commit). */
  rowOf: Map<string, number>;
  /** The moment the runs are of: the forecast's, then the last rebase's. */
  at: number;
}

/** What a kept book answers for a party: its seat from the kept runs at their moment, worked out when asked. */
export interface FloorSeats {
  get(id: string): FloorSeat | undefined;
  set(id: string, seat: FloorSeat): unknown;
}

/** A venue's floor as the estimate reads it (floor-events.ts `findBook`): every waiting party's seat. */
export interface FloorBook {
  state: FloorState;
  seats: FloorSeats;
  /** When the forecast was made. */
  at: number;
  /** What its runs leave behind the whole queue, for joins at its end (`forecastBehind`); never changed once made. */
  tail?: FloorTail;
}

/** A quote in whole minutes from `now`, rounded outwards, never a range of one figure. */
export function quoteOfSeat(seat: FloorSeat, now: number): { time: number; low: number; high: number } {
  const minutes = (t: number) => (t - now) / 60_000;
  const time = Math.max(1, Math.round(minutes(seat.mid)));
  const low = Math.max(0, Math.min(time - 1, Math.floor(minutes(seat.low))));
  const high = Math.max(time + 1, Math.ceil(minutes(seat.high)));
  return { time, low, high };
}

export const FORECAST_RUNS = 60;
/** The runs' range: their 10th to 90th percentile, the same promise as a calibrated range (calibration.ts LOW_QUANTILE, HIGH_QUANTILE). */
const LOW_RUN_QUANTILE = LOW_QUANTILE;
const HIGH_RUN_QUANTILE = HIGH_QUANTILE;

/**
 * A log-normal turn of this median drawn given that it has lasted `ageMinutes` already, from one
 * uniform number `u`, exactly (derivation: inverse transform in the upper tail, z drawn above
 * z₀ = ln(age / median) / σ with P(Z > z) = u · P(Z > z₀)). A table past its usual turn is not
 * about to free: the longer it has lasted, the longer what is left of it (a log-normal's remaining
 * life grows with its age). Drawing until a turn beyond the age came up and else taking a few
 * minutes more, as before, quoted parties behind a table hours past its turn a few minutes for
 * hours (docs/decisions/041-requotes-behind-an-overdue-table.md).
 */
export function turnGivenAge(median: number, ageMinutes: number, u: number): number {
  if (ageMinutes <= 0) return median * Math.exp(TURN_SIGMA * normalQuantile(Math.min(1 - 1e-12, Math.max(1e-12, u))));
  const tail = turnSurvival(ageMinutes, median) * Math.min(1, Math.max(1e-12, u));
  // P(Z > z) = tail: z = −Φ⁻¹(tail); never below the age (the approximations' last digits).
  const z = -normalQuantile(Math.max(Number.MIN_VALUE, Math.min(1 - 1e-12, tail)));
  return Math.max(ageMinutes, median * Math.exp(TURN_SIGMA * z));
}
/** Apart the seeds of the newcomers placed behind a forecast's queue (any odd number: each its own stream). */
const PLACED_SEED_STEP = 0x9e3779b1;
/** A forecast keeps a party's seat only if it was seated in at least this share of the runs (it gave up in the others). */
const MIN_SEATED_SHARE = 1 / 4;
/**
 * How far ahead a run plays (docs/decisions/069-a-forecast-horizon.md): twice a long evening's
 * service, past any wait a restaurant quotes, so its queue is played to the end; a run stops at the
 * first table free later than this, and the parties still waiting then are seated past it
 * (Infinity). A party seated past it in more than a tenth of its runs gets no seat from the floor
 * (the estimator quotes it), nor does a join behind it. So a run costs the parties twelve hours
 * can seat, not the queue (an uncapped queue of thousands is played again at every rebase).
 */
const HORIZON_MS = 12 * 60 * 60_000;

/** What one forecast did, for a test that its cost per party does not grow with the queue: steps of its loops. */
export interface ForecastCost {
  steps: number;
}

/**
 * Every waiting party's wait, from the floor and the queue at `now`: `runs` futures, each giving
 * each freed table to the first waiting party it fits. `upTo` stops once the parties up to this
 * index are seated (a join needs only its own). `cost`, when given, counts the loops' steps.
 *
 * Linear in the queue: each run finds the first party a freed table fits by keeping, per party
 * size, a pointer to the first of that size not seated and not gone (time only moves forward in a
 * run, so a party passed over is never wanted again); a table's candidates are the heads of the
 * sizes it fits. The work per seating is the tables and the sizes, never the queue.
 */
export function forecastFloor(
  state: FloorState,
  queue: FloorQueue,
  now: number,
  mode: FloorMode,
  options: { runs?: number; seed?: number; upTo?: number; cost?: ForecastCost; tail?: boolean } = {},
): FloorForecast {
  const played = play(state, queue, now, mode, {
    runs: options.runs ?? FORECAST_RUNS,
    seed: options.seed ?? Math.floor(now / 1000),
    upTo: options.upTo,
    cost: options.cost,
    tail: options.tail === true,
    kept: false,
  });
  const { runs, n, times } = played;
  const spreads = new Map<number, { low: number; high: number } | null>();
  const seats: (FloorSeat | null)[] = new Array<FloorSeat | null>(n);
  for (let j = 0; j < n; j++) {
    // Not kept: each party's runs are packed where they lie, then sorted there.
    const row = times.subarray(j * runs, (j + 1) * runs);
    let count = 0;
    for (let k = 0; k < runs; k++) if (!Number.isNaN(row[k]!)) row[count++] = row[k]!;
    const size = queue.waiting[j]!.size;
    if (!spreads.has(size)) spreads.set(size, floorSpread(state, size));
    seats[j] = seatOfRuns(row.subarray(0, count), runs, spreads.get(size)!, now, queue.waiting[j]!.joinedAt);
  }
  return played.tail ? { seats, tail: played.tail } : { seats };
}

/**
 * The whole queue's forecast as a kept book holds it (pace-cache.ts): its tail with the runs
 * themselves (`KeptRuns`), each party's seat worked out from them when asked (`keptSeats`).
 */
export function forecastKept(
  state: FloorState,
  queue: { waiting: readonly { id: string; size: number; joinedAt: number }[]; called: readonly FloorParty[] },
  now: number,
  mode: FloorMode,
  options: { runs?: number; seed?: number; cost?: ForecastCost } = {},
): FloorTail & { kept: KeptRuns } {
  // The rows' parties as a rebase plays them again: one shape of object for every play of them.
  const waiting = queue.waiting.map(({ size, joinedAt }) => ({ size, joinedAt }));
  const played = play(state, { waiting, called: queue.called }, now, mode, {
    runs: options.runs ?? FORECAST_RUNS,
    seed: options.seed ?? Math.floor(now / 1000),
    upTo: undefined,
    cost: options.cost,
    tail: true,
    kept: true,
  });
  const tail = played.tail!;
  const rowOf = new Map<string, number>();
  queue.waiting.forEach((p, j) => rowOf.set(p.id, j));
  const kept: KeptRuns = {
    times: played.times,
    rows: played.n,
    firstEvent: played.firstEvent!,
    waiting,
    called: queue.called,
    rowOf,
    at: now,
  };
  return { ...tail, kept };
}

/**
 * The runs of a whole-queue forecast, unsummarised: every waiting party's seat per run (NaN where
 * not seated), and with `tail` or `kept` the tail; with `kept` each run's first event too.
 */
function play(
  state: FloorState,
  queue: FloorQueue,
  now: number,
  mode: FloorMode,
  // Every field given, by every caller: one shape (the forecast's code stays as the JIT made it).
  options: { runs: number; seed: number; upTo: number | undefined; cost: ForecastCost | undefined; tail: boolean; kept: boolean },
): { runs: number; n: number; times: Float64Array; tail?: FloorTail; firstEvent?: Float64Array } {
  const MIN = 60_000;
  const { runs, seed } = options;
  const upTo = Math.min(options.upTo ?? queue.waiting.length - 1, queue.waiting.length - 1);
  const limited = options.upTo !== undefined;
  const r = seededRandom(seed);
  const n = upTo + 1;
  const tables = state.tables;
  const T = tables.length;
  let steps = 0;
  const walks = state.walks.length ? state.walks : [DEFAULT_WALK_MINUTES];
  const looks = state.looks && state.looks.length >= MIN_LOOKS ? state.looks : [DEFAULT_LOOK_MINUTES];
  const patience = Math.max(1, state.patience);
  const horizon = now + HORIZON_MS;

  // Parties by size: which tables each size fits, worked out once per size.
  const groupOfSize = new Map<number, number>();
  const groupSizes: number[] = [];
  const groupOf = (size: number): number => {
    let g = groupOfSize.get(size);
    if (g === undefined) {
      g = groupSizes.length;
      groupOfSize.set(size, g);
      groupSizes.push(size);
    }
    return g;
  };
  const partyGroup = new Int32Array(n);
  for (let j = 0; j < n; j++) partyGroup[j] = groupOf(queue.waiting[j]!.size);
  // A table that a party waiting for a while fits is busy now: the host would have called it.
  for (let j = n; j < queue.waiting.length; j++) groupOf(queue.waiting[j]!.size);
  const groupFits = groupSizes.map((size) => fittingTables(tables, size, mode));
  const G = groupSizes.length;
  // Per size, its parties in queue order (indices into the first n), as one flat list.
  const groupStart = new Int32Array(G + 1);
  for (let j = 0; j < n; j++) groupStart[partyGroup[j]! + 1]! += 1;
  for (let g = 0; g < G; g++) groupStart[g + 1] = groupStart[g + 1]! + groupStart[g]!;
  const members = new Int32Array(n);
  {
    const fill = groupStart.slice(0, G);
    for (let j = 0; j < n; j++) members[fill[partyGroup[j]!]!++] = j;
  }
  // Per table, the sizes it fits (only those with parties in the first n), as one flat list:
  // table i's are tableGroups[tableGroupStart[i] .. tableGroupStart[i + 1]) (typed arrays, one
  // shape whatever the venue, for the loops below).
  const tableGroupStart = new Int32Array(T + 1);
  groupFits.forEach((list, g) => {
    if (groupStart[g + 1]! > groupStart[g]!) for (const i of list) tableGroupStart[i + 1]! += 1;
  });
  for (let i = 0; i < T; i++) tableGroupStart[i + 1] = tableGroupStart[i + 1]! + tableGroupStart[i]!;
  const tableGroups = new Int32Array(tableGroupStart[T]!);
  {
    const fill = tableGroupStart.slice(0, T);
    groupFits.forEach((list, g) => {
      if (groupStart[g + 1]! > groupStart[g]!) for (const i of list) tableGroups[fill[i]!++] = g;
    });
  }
  const watched = new Uint8Array(T);
  queue.waiting.forEach((p) => {
    if (p.joinedAt === undefined || now - p.joinedAt < WAITED_FOR_TABLE_MS) return;
    for (const i of groupFits[groupOf(p.size)]!) watched[i] = 1;
  });
  const calledById = new Map(queue.called.map((c) => [c.id, c]));
  // What stays the same from run to run: each party size's median turn, the walks longer than a
  // given wait, each busy table's chance to be still busy, each party's chance to give up.
  const medians = new Map<number, number>();
  const medianOf = (size: number): number => {
    let median = medians.get(size);
    if (median === undefined) medians.set(size, (median = turnMedian(state, size)));
    return median;
  };
  const walksAfter = new Map<number, number[]>();
  const later = (elapsed: number): number[] => {
    let list = walksAfter.get(elapsed);
    if (!list) walksAfter.set(elapsed, (list = walks.filter((w) => w > elapsed)));
    return list;
  };
  const stillBusy = tables.map((t) => (t.busySince === null ? 1 : turnSurvival((now - t.busySince) / MIN, medianOf(t.party))));
  const leaverChance = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    // Still here after waiting `w`: one who gives up with probability q·e^(−w/m) / (q·e^(−w/m) + 1 − q).
    const joinedAt = queue.waiting[j]!.joinedAt ?? now;
    const keep = state.leaveShare * Math.exp(-Math.max(0, now - joinedAt) / MIN / patience);
    leaverChance[j] = keep / Math.max(TINY, keep + 1 - state.leaveShare);
  }
  const partyMedian = new Float64Array(n);
  for (let j = 0; j < n; j++) partyMedian[j] = medianOf(queue.waiting[j]!.size);
  const turnFactor = () => TURN_FACTORS[Math.floor(r() * TURN_QUANTILES)]!;
  const drawTurn = (size: number, ageMinutes: number): number => {
    const median = medianOf(size);
    if (ageMinutes <= 0) return median * turnFactor();
    return turnGivenAge(median, ageMinutes, r());
  };
  const anyWalk = later(0).length ? later(0) : [1];
  const drawWalk = (elapsed: number): number => {
    const after = later(elapsed);
    const from = after.length ? after : [elapsed + 1];
    return from[Math.floor(r() * from.length)]!;
  };
  const drawLook = (): number => looks[Math.floor(r() * looks.length)]!;

  // One more than the tables: the tournament's padding, never free.
  const freeAt = new Float64Array(T + 1).fill(Infinity);
  // A table free now (seen free, or freed unseen): its party is called at the host's next look.
  const lookFirst = new Uint8Array(T);
  const seatAt = new Float64Array(n);
  const leaveAt = new Float64Array(n);
  const head = new Int32Array(G);
  // Per party, per run (party-major): its seat, NaN where it was not seated.
  const seatTimes = new Float64Array(n * runs);
  // The tail (`FloorTail`), for a whole-queue forecast only: a table is pinned once its moment is known.
  const tail =
    (options.tail || options.kept) && !limited ? { freeAt: new Float64Array(runs * T), lookFirst: new Uint8Array(runs * T) } : null;
  // A kept forecast's first events (`KeptRuns`): what the venue would have seen first in each run.
  const firstEvent = options.kept ? new Float64Array(runs) : null;
  const pinned = new Uint8Array(T);
  // The table free first, kept by a tournament tree over the tables (`rebuild`, `moved`): a
  // seating changes one table's time, so finding the next costs the tree's depth, not a look at
  // every table. Ties go to the lower index, as a scan in table order would
  // (docs/decisions/064-join-rows-and-the-next-free-table.md).
  let leaves = 1;
  while (leaves < T) leaves *= 2;
  const depth = Math.log2(leaves);
  const winner = new Int32Array(2 * leaves);
  // The earlier of two tables; one with no time left in this run (Infinity) loses, as does the
  // padding past the last table (index T, always Infinity).
  const earlier = (a: number, b: number): number => {
    const fa = freeAt[a]!;
    const fb = freeAt[b]!;
    return fb < fa || (!(fa < Infinity) && fb < Infinity) ? b : a;
  };
  /** Every table's time set: the tree made again from its leaves. */
  const rebuild = () => {
    for (let k = 0; k < leaves; k++) winner[leaves + k] = k < T ? k : T;
    for (let x = leaves - 1; x >= 1; x--) winner[x] = earlier(winner[2 * x]!, winner[2 * x + 1]!);
  };
  /** Table `i`'s time changed: the matches on its way up played again. */
  const moved = (i: number) => {
    for (let x = (leaves + i) >> 1; x >= 1; x >>= 1) winner[x] = earlier(winner[2 * x]!, winner[2 * x + 1]!);
  };

  const pin = (run: number, i: number, at: number) => {
    pinned[i] = 1;
    tail!.freeAt[run * T + i] = at;
    tail!.lookFirst[run * T + i] = lookFirst[i]!;
  };

  for (let run = 0; run < runs; run++) {
    let first = Infinity;
    for (let i = 0; i < T; i++) {
      const t = tables[i]!;
      lookFirst[i] = 0;
      if (t.heldFor !== null) {
        const c = calledById.get(t.heldFor);
        if (!c || c.calledAt == null) {
          freeAt[i] = now;
          lookFirst[i] = 1;
          continue;
        }
        const elapsed = (now - c.calledAt) / MIN;
        const stillComing = later(elapsed).length / walks.length;
        const noShowLeft = elapsed < state.noShowAfter ? 1 : 0;
        const pNo = (state.noShow * noShowLeft) / Math.max(TINY, state.noShow * noShowLeft + (1 - state.noShow) * stillComing);
        // Marked at a look, the table is called at the same look.
        if (r() < pNo) {
          freeAt[i] = Math.max(now, c.calledAt + state.noShowAfter * MIN);
          first = Math.min(first, freeAt[i]!);
        } else {
          const seat = Math.max(now, c.calledAt + drawWalk(elapsed) * MIN);
          first = Math.min(first, seat);
          freeAt[i] = seat + drawTurn(c.size, 0) * MIN;
        }
      } else if (t.busySince !== null) {
        const age = (now - t.busySince) / MIN;
        // Nobody it fits has been waiting long enough for the host to have called them: it may
        // have freed already, unseen.
        if (!watched[i] && r() > stillBusy[i]!) {
          freeAt[i] = now;
          lookFirst[i] = 1;
        } else freeAt[i] = t.busySince + drawTurn(t.party, age) * MIN;
      } else {
        freeAt[i] = now;
        lookFirst[i] = 1;
      }
    }
    for (let j = 0; j < n; j++) {
      seatAt[j] = NaN;
      leaveAt[j] = r() < leaverChance[j]! ? now - Math.log(Math.max(r(), NEVER_ZERO)) * patience * MIN : Infinity;
      // Giving up is seen (its event); one seated first was called earlier still.
      if (leaveAt[j]! < first) first = leaveAt[j]!;
    }
    head.fill(0);
    pinned.fill(0);
    rebuild();
    steps += T + n;
    // The target parties never give up in their own forecast: it is of the wait if they stay.
    let left = n;
    // The first table's moment past the horizon, when the run stopped there (parties still waiting).
    let cut = Infinity;
    for (;;) {
      const i = winner[1]!;
      steps += depth;
      if (!(freeAt[i]! < Infinity)) break;
      const t = freeAt[i]!;
      if (t > horizon) {
        cut = t;
        break;
      }
      // The first party the table fits: the earliest of the heads of the sizes it fits, each head
      // moved past those seated or gone by now (for good: `t` never goes back within a run).
      let j = -1;
      let jGroup = -1;
      for (let q = tableGroupStart[i]!; q < tableGroupStart[i + 1]!; q++) {
        const g = tableGroups[q]!;
        const end = groupStart[g + 1]!;
        let h = head[g]!;
        for (; groupStart[g]! + h < end; h++) {
          const k = members[groupStart[g]! + h]!;
          steps += 1;
          if (!Number.isNaN(seatAt[k]!)) continue;
          // Someone ahead who gave up by now is gone: the next fitting party gets the table.
          if (k < n - 1 && k !== upTo && leaveAt[k]! <= t) continue;
          break;
        }
        head[g] = h;
        if (groupStart[g]! + h < end) {
          const k = members[groupStart[g]! + h]!;
          if (j < 0 || k < j) {
            j = k;
            jGroup = g;
          }
        }
      }
      if (j < 0) {
        if (tail && !pinned[i]) pin(run, i, t);
        freeAt[i] = Infinity;
        moved(i);
        continue;
      }
      // The last party never gives up in its own forecast; had it given up, the table would have
      // found nobody ahead it fits: free from here to a party behind everyone.
      if (tail && j === n - 1 && leaveAt[j]! <= t) pin(run, i, t);
      const call = t + (lookFirst[i] ? drawLook() : 0) * MIN;
      const seat = call + anyWalk[Math.floor(r() * anyWalk.length)]! * MIN;
      if (call < first) first = call;
      lookFirst[i] = 0;
      seatAt[j] = seat;
      head[jGroup] = head[jGroup]! + 1;
      left -= 1;
      if (j !== upTo && r() < state.noShow) freeAt[i] = t + state.noShowAfter * MIN;
      else freeAt[i] = seat + partyMedian[j]! * turnFactor() * MIN;
      moved(i);
      if (limited && !Number.isNaN(seatAt[upTo]!)) break;
      if (left === 0) break;
    }
    // Stopped at the horizon: a newcomer behind everyone is seated past it, as is every party
    // still waiting that had not given up by then.
    if (cut < Infinity) {
      for (let i = 0; i < T; i++) if (!pinned[i]) freeAt[i] = Infinity;
      for (let j = 0; j < n; j++) if (Number.isNaN(seatAt[j]!) && !(j < n - 1 && j !== upTo && leaveAt[j]! <= cut)) seatAt[j] = Infinity;
    }
    if (tail) for (let i = 0; i < T; i++) if (!pinned[i]) pin(run, i, freeAt[i]!);
    if (firstEvent) firstEvent[run] = first;
    for (let j = 0; j < n; j++) seatTimes[j * runs + run] = seatAt[j]!;
  }
  if (options.cost) options.cost.steps += steps;
  return {
    runs,
    n,
    times: seatTimes,
    ...(tail ? { tail: { runs, ...tail, placed: 0, seed } } : {}),
    ...(firstEvent ? { firstEvent } : {}),
  };
}

/**
 * The `q` quantile of sorted seat times (the lower one). A function of its own, not a closure made
 * in `seatOfRuns`: that runs for every party of a kept book, and a closure made there costs about
 * half a microsecond each time (tsx keeps every function's name by defining it on the function;
 * bench/lib/floor-micro.ts).
 */
function quantileOfSorted(times: Float64Array, q: number): number {
  return times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
}

/** A party's seat from its seat times in the runs that seated it (sorted here), of `runs`. */
function seatOfRuns(
  times: Float64Array,
  runs: number,
  spread: { low: number; high: number } | null,
  now: number,
  joinedAt: number | undefined,
): FloorSeat | null {
  const MIN = 60_000;
  const count = times.length;
  // A party that gave up in a run has no seat in it: the read of one that stays uses the
  // others (the join's own forecast never lets it give up).
  if (count < runs * MIN_SEATED_SHARE) return null;
  times.sort();
  // Seated past the horizon (Infinity) in more than a tenth of its runs: the floor does not speak.
  if (!(quantileOfSorted(times, HIGH_RUN_QUANTILE) < Infinity)) return null;
  const mid = quantileOfSorted(times, 0.5);
  if (!spread) return { low: quantileOfSorted(times, LOW_RUN_QUANTILE), mid, high: quantileOfSorted(times, HIGH_RUN_QUANTILE) };
  // Calibrated (calibration.ts): the range the floor's own recent errors set around its median.
  const scale = (Math.max(0, mid - now) / MIN + MARGIN_MINUTES) * MIN;
  const low = Math.max(now, mid + spread.low * scale);
  const high = mid + spread.high * scale;
  // The errors are those of join quotes: a party that has waited already is not one of those
  // (what holds it up has lasted, and may last). Its range reaches at least as high as the runs'
  // (docs/decisions/041-requotes-behind-an-overdue-table.md); its bottom stays the calibrated one
  // (docs/decisions/055-requotes-widened-upwards.md).
  return joinedAt !== undefined && joinedAt < now
    ? { low, mid, high: Math.max(high, quantileOfSorted(times, HIGH_RUN_QUANTILE)) }
    : { low, mid, high };
}

/** A tail of one's own, to place newcomers on (`forecastBehind` changes the one it is given). */
export function copyTail(tail: FloorTail): FloorTail {
  const { kept: _, ...rest } = tail;
  return { ...rest, freeAt: tail.freeAt.slice(), lookFirst: tail.lookFirst.slice() };
}

/**
 * Newcomers joining behind the whole queue of a forecast, in order, at `now`, from its tail
 * (docs/decisions/043-busy-venue-joins.md): in each run, a newcomer takes the first of the tables
 * it fits to be free with nobody ahead it fits still waiting (no earlier than `now`), the table the
 * forecast of the queue with the newcomer at its end gives it, without playing the queue again.
 * Its seat is drawn as there (the host's look at a table free since the start, its walk). It never
 * gives up in its own forecast; for those after it, it may (the leave share, as any party ahead),
 * else its table is free again after its turn (or its no-show). The draws are its own (the tail's
 * seed and its place behind the queue), so none of those ahead moves. `tail` is changed: it then
 * stands behind the newcomers too; a kept tail's runs (`KeptRuns`) get each newcomer's row and
 * first event. A table free only past the horizon (`HORIZON_MS`, from `now`) is given to no one,
 * as in `play`: a newcomer whose tables all are is seated past it in that run. O(runs × tables) a
 * newcomer, whatever the queue.
 */
export function forecastBehind(
  state: FloorState,
  tail: FloorTail,
  newcomers: readonly { size: number }[],
  now: number,
  mode: FloorMode,
): (FloorSeat | null)[] {
  const MIN = 60_000;
  const { runs, freeAt, lookFirst } = tail;
  const tables = state.tables;
  const T = tables.length;
  const positive = (state.walks.length ? state.walks : [DEFAULT_WALK_MINUTES]).filter((w) => w > 0);
  const walks = positive.length ? positive : [1];
  const looks = state.looks && state.looks.length >= MIN_LOOKS ? state.looks : [DEFAULT_LOOK_MINUTES];
  const patience = Math.max(1, state.patience);
  // Joined now: one who has not waited gives up by the leave share (forecastFloor's `leaverChance`).
  const leaverChance = state.leaveShare;
  const horizon = now + HORIZON_MS;
  const times = new Float64Array(runs);
  const kept = tail.kept;
  return newcomers.map(({ size }) => {
    const r = seededRandom(tail.seed + PLACED_SEED_STEP * ++tail.placed);
    const fits = fittingTables(tables, size, mode);
    const median = turnMedian(state, size);
    const row = kept ? keptRow(kept, size, now) : null;
    let count = 0;
    for (let run = 0; run < runs; run++) {
      const base = run * T;
      // The first of its tables to be free (the lowest in `fits` of those free first).
      let i = -1;
      let first = Infinity;
      for (let q = 0; q < fits.length; q++) {
        const k = fits[q]!;
        const at = freeAt[base + k]!;
        if (at < first) {
          first = at;
          i = k;
        }
      }
      if (i < 0 || first > horizon) {
        // Every table it fits is taken past the horizon in this run, as `play` gives none: so is its seat.
        if (fits.length > 0) {
          times[count++] = Infinity;
          if (row) row[run] = Infinity;
        }
        continue;
      }
      const t = Math.max(now, freeAt[base + i]!);
      const call = t + (lookFirst[base + i] ? looks[Math.floor(r() * looks.length)]! : 0) * MIN;
      const seat = call + walks[Math.floor(r() * walks.length)]! * MIN;
      times[count++] = seat;
      // For those after it: gone before its table freed, it leaves the table to them; else the
      // table is theirs after its turn, or when it is marked as not coming.
      const leaveAt = r() < leaverChance ? now - Math.log(Math.max(r(), NEVER_ZERO)) * patience * MIN : Infinity;
      if (row) {
        row[run] = seat;
        // Its call, or its giving up before it: the first the venue would see of it in this run.
        const seen = Math.min(call, leaveAt);
        if (seen < kept!.firstEvent[run]!) kept!.firstEvent[run] = seen;
      }
      if (leaveAt <= t) continue;
      lookFirst[base + i] = 0;
      freeAt[base + i] =
        r() < state.noShow ? t + state.noShowAfter * MIN : seat + median * TURN_FACTORS[Math.floor(r() * TURN_QUANTILES)]! * MIN;
    }
    return seatOfRuns(times.slice(0, count), runs, floorSpread(state, size), now, now);
  });
}

/** A new row of the kept runs for a party joining behind at `now` (NaN in every run until placed), room made as needed. */
function keptRow(kept: KeptRuns, size: number, now: number): Float64Array {
  const runs = kept.firstEvent.length;
  if ((kept.rows + 1) * runs > kept.times.length) {
    const grown = new Float64Array(Math.max(2 * kept.times.length, (kept.rows + 1) * runs));
    grown.set(kept.times.subarray(0, kept.rows * runs));
    kept.times = grown;
  }
  const row = kept.times.subarray(kept.rows * runs, (kept.rows + 1) * runs);
  row.fill(NaN);
  kept.rows += 1;
  kept.waiting.push({ size, joinedAt: now });
  return row;
}

/** Apart the seeds of a kept book's runs played again at each rebase from those of a forecast at the same second. */
const REBASE_SEED_STEP = 0x85ebca6b;

/**
 * A kept forecast brought to `now`, when nothing was seen at the venue since its runs' moment
 * (docs/decisions/047-rebased-books.md): only time passed. A run in which the venue would have
 * seen something by now (a call, a called party seated or marked as not coming, a waiting party
 * giving up: `KeptRuns.firstEvent`) is a future that did not happen: it is played again from now
 * (the queue's parties and those placed behind it, as at a forecast of now: each busy table given
 * its age, each party its wait). Every other run stands: nothing in it happened before now, and
 * it goes on as it would. So the runs kept are the forecast's runs given that nothing happened,
 * and the runs played again are a forecast of now: together, the forecast of now (floor.test.ts
 * checks it). Changes the tail and its runs in place; returns how many runs were played again.
 * O(runs played again × queue) plus O(runs).
 */
export function rebaseKept(state: FloorState, tail: FloorTail & { kept: KeptRuns }, now: number, mode: FloorMode): number {
  const { kept, runs } = tail;
  if (now <= kept.at) return 0;
  const again: number[] = [];
  for (let run = 0; run < runs; run++) if (kept.firstEvent[run]! < now) again.push(run);
  kept.at = now;
  if (again.length === 0) return 0;
  const seed = (Math.floor(now / 1000) + REBASE_SEED_STEP) | 0;
  const played = play(state, { waiting: kept.waiting, called: kept.called }, now, mode, {
    runs: again.length,
    seed,
    upTo: undefined,
    cost: undefined,
    tail: true,
    kept: true,
  });
  const T = state.tables.length;
  const k = again.length;
  const fresh = played.tail!;
  again.forEach((run, m) => {
    for (let j = 0; j < kept.rows; j++) kept.times[j * runs + run] = played.times[j * k + m]!;
    kept.firstEvent[run] = played.firstEvent![m]!;
    tail.freeAt.set(fresh.freeAt.subarray(m * T, (m + 1) * T), run * T);
    tail.lookFirst.set(fresh.lookFirst.subarray(m * T, (m + 1) * T), run * T);
  });
  return k;
}

/**
 * Every party's seat from a kept book's runs at their moment (`KeptRuns.at`), worked out when
 * first asked, then kept; `set` gives a party the quote it was given (a join's, placed behind).
 */
export function keptSeats(state: FloorState, tail: FloorTail & { kept: KeptRuns }): FloorSeats {
  const { kept, runs } = tail;
  const at = kept.at;
  const known = new Map<string, FloorSeat | null>();
  const scratch = new Float64Array(runs);
  return {
    get(id) {
      let seat = known.get(id);
      if (seat === undefined) {
        const row = kept.rowOf.get(id);
        if (row === undefined || row >= kept.rows) return undefined;
        let count = 0;
        for (let run = 0; run < runs; run++) {
          const t = kept.times[row * runs + run]!;
          if (!Number.isNaN(t)) scratch[count++] = t;
        }
        const { size, joinedAt } = kept.waiting[row]!;
        seat = seatOfRuns(scratch.slice(0, count), runs, floorSpread(state, size), at, joinedAt);
        known.set(id, seat);
      }
      return seat ?? undefined;
    },
    set(id, seat) {
      known.set(id, seat);
    },
  };
}
