import { type HostStreamData, type Language, StreamMessage, type VenueChannelEvent } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';
import {
  NOT_WAITING,
  type PaceBook,
  type Placement,
  QueueCache,
  type QueueDeps,
  type QueueRow,
  findEntriesByIds,
  findPaceOf,
  forEachPlacement,
  toHostEntry,
} from '../queue/index.js';
import { getVenue } from '../venues/venues.service.js';
import { type FanoutStrategy, productionFanout } from './fanout.js';
import { type FramedTemplate, type PositionView, buildTemplate, frameTemplate, renderFull, versionOf } from './position-template.js';
import type { SseStream } from './sse-stream.js';

export interface DinerSubscriber {
  stream: SseStream;
  entryId: string;
  isShared: boolean;
  lang: Language;
  /** Which view of the entry it gets (own or shared, language): its template's key. */
  key: string;
  /** The refresh number of the newest state written: an older state is never written after it. */
  stamp: number;
  /**
   * The last message written, as its template and the place filled in (the walk reuses its
   * placement object: the figures are copied). The same template at the same place again is the
   * same message: not written (a party joining behind moves nobody ahead of it).
   */
  sent: FramedTemplate | undefined;
  sentPos: number;
  sentGlobalPos: number;
  sentTime: number | null;
  sentLow: number | null;
  sentHigh: number | null;
}

/** A diner given no message yet (realtime.service.ts opens it with these). */
export const NOTHING_SENT = { sent: undefined, sentPos: 0, sentGlobalPos: 0, sentTime: null, sentLow: null, sentHigh: null } as const;

/**
 * Whether this message is new to the diner (not this template at this place again, which would show
 * nothing new), noting it as written when it is. `writesUnchanged`: every message is new.
 */
function isNewTo(sub: DinerSubscriber, template: FramedTemplate, p: Placement, writesUnchanged: boolean | undefined): boolean {
  if (!writesUnchanged && sentAlready(sub, template, p)) return false;
  noteSent(sub, template, p);
  return true;
}

function sentAlready(sub: DinerSubscriber, template: FramedTemplate, p: Placement): boolean {
  return (
    sub.sent === template &&
    sub.sentPos === p.pos &&
    sub.sentGlobalPos === p.globalPos &&
    sub.sentTime === p.estimatedTime &&
    sub.sentLow === (p.estimatedRange?.low ?? null) &&
    sub.sentHigh === (p.estimatedRange?.high ?? null)
  );
}

function noteSent(sub: DinerSubscriber, template: FramedTemplate | undefined, p: Placement): void {
  sub.sent = template;
  sub.sentPos = p.pos;
  sub.sentGlobalPos = p.globalPos;
  sub.sentTime = p.estimatedTime;
  sub.sentLow = p.estimatedRange?.low ?? null;
  sub.sentHigh = p.estimatedRange?.high ?? null;
}

export interface HostSubscriber {
  stream: SseStream;
  stamp: number;
  /** Asked before every write: the whole queue goes only to a session still allowed it (docs/security.md). */
  access: { isAllowed(): boolean };
}

/** The subscribers of one entry and their pre-serialised messages (one per view: own/shared, language). */
interface EntrySubscribers {
  /** An array, not a Set: the fan-out walks it for 10,000 entries per change (no iterator each time). */
  subs: DinerSubscriber[];
  templates: Map<string, FramedTemplate>;
  /** The refresh that last found this entry in the open queue. */
  seenAt: number;
  /** The version of row `versionOf` under view `versionView`: kept while the queue keeps that row object and the view stays. */
  version: string | undefined;
  versionOf: QueueRow | undefined;
  versionView: PositionView | undefined;
  /** The whole row the templates were built from, kept only when the fan-out strategy asks (`keepsRows`, fanout.ts). */
  row: EntryRow | undefined;
}

/** How long new streams wait for others to share their snapshot's queue read. */
const SNAPSHOT_BATCH_MS = 20;

/** Refresh numbers, process-wide and increasing: a later refresh read the store later. */
let refreshCounter = 0;
export const nextStamp = (): number => ++refreshCounter;

/**
 * The subscribers of one venue in this instance. On venue events it updates the venue's queue
 * ONCE (queue-cache.ts: the changed entries, or the whole open queue; plus venue and pace: three
 * queries however many subscribers), walks it in memory and writes each diner its own position
 * and each host the whole queue. Events that arrive while a refresh
 * runs are folded into the next one, so a burst costs two refreshes, not N.
 */
export class VenueHub {
  readonly diners = new Map<string, EntrySubscribers>();
  readonly hosts = new Set<HostSubscriber>();
  private pending: VenueChannelEvent[] = [];
  private snapshotsWanted = false;
  /** Events may have been missed since the last refresh began (`onLoss`). */
  private lost = false;
  /** A refresh has read the store: before that, nothing kept here was read without hearing the venue. */
  private read = false;
  private running = false;
  private readonly queue: QueueCache;
  private view: PositionView | undefined;

  constructor(
    readonly venueId: string,
    private readonly deps: QueueDeps,
    private readonly onError: (error: unknown) => void,
    /** How diners' messages are written (fanout.ts): the kept optimisations unless bench/ injects another way. */
    private readonly fanout: FanoutStrategy = productionFanout,
  ) {
    // The queue is heard through the bus: kept as long as what else is kept on hearing (position-cache.ts `standsMs`).
    this.queue = new QueueCache(venueId, Date.now, deps.positions?.standsMs);
  }

  get size(): number {
    let n = this.hosts.size;
    for (const entry of this.diners.values()) n += entry.subs.length;
    return n;
  }

  /** Adds a stream; its first message (the snapshot) comes from the next refresh. */
  addDiner(sub: DinerSubscriber): void {
    let entry = this.diners.get(sub.entryId);
    // Every field from the start: one object shape for all entries keeps the fan-out loop monomorphic.
    if (!entry)
      this.diners.set(
        sub.entryId,
        (entry = {
          subs: [],
          templates: new Map(),
          seenAt: 0,
          version: undefined,
          versionOf: undefined,
          versionView: undefined,
          row: undefined,
        }),
      );
    entry.subs.push(sub);
    this.requestSnapshots();
  }

  addHost(sub: HostSubscriber): void {
    this.hosts.add(sub);
    this.requestSnapshots();
  }

  /**
   * New streams get their snapshot from a refresh, like a change: a connect storm (10,000 pages
   * reconnecting after a deploy) costs a few queue reads shared by all, not queries per stream.
   */
  private requestSnapshots(): void {
    this.snapshotsWanted = true;
    if (!this.running) void this.drain();
  }

  removeDiner(sub: DinerSubscriber): void {
    const entry = this.diners.get(sub.entryId);
    if (!entry) return;
    const at = entry.subs.indexOf(sub);
    if (at !== -1) entry.subs.splice(at, 1);
    if (entry.subs.length === 0) this.diners.delete(sub.entryId);
  }

  onEvent(event: VenueChannelEvent): void {
    this.pending.push(event);
    if (!this.running) void this.drain();
  }

  /**
   * Events of the venue may have been missed (bus-redis.ts): the next refresh reads the whole queue
   * and writes everyone. A hub that has read nothing yet (its own subscription answered before its
   * first refresh) has nothing to read again: its first snapshots keep their batching window.
   */
  onLoss(): void {
    if (!this.read) return;
    this.lost = true;
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.length > 0 || this.snapshotsWanted || this.lost) {
        // Let requests already received reach us first, so one refresh serves them all: a change
        // waits only for this turn of the event loop, new streams up to SNAPSHOT_BATCH_MS (a
        // synchronous SQLite read would otherwise run once per connecting stream).
        await new Promise((resolve) =>
          this.pending.length > 0 || this.lost ? setImmediate(resolve) : setTimeout(resolve, SNAPSHOT_BATCH_MS),
        );
        const events = this.pending;
        const snapshots = this.snapshotsWanted;
        const lost = this.lost;
        this.pending = [];
        this.snapshotsWanted = false;
        this.lost = false;
        await this.refresh(events, snapshots, lost).catch((error: unknown) => {
          this.queue.invalidate();
          this.onError(error);
          this.dropUnserved();
        });
      }
    } finally {
      this.running = false;
    }
  }

  /** Streams that never got their snapshot end, so their clients reconnect and try again. */
  private dropUnserved(): void {
    for (const entry of this.diners.values()) for (const sub of entry.subs) if (sub.stamp === 0) sub.stream.end();
    for (const sub of this.hosts) if (sub.stamp === 0) sub.stream.end();
  }

  /** Writes from ready templates; false when some subscriber needs the whole row first. */
  private writeFromTemplates(
    entry: EntrySubscribers,
    row: QueueRow,
    placement: Placement,
    view: PositionView,
    stamp: number,
    onlyNew: boolean,
  ): boolean {
    // The queue keeps a row object until that entry changes: its version is worked out once.
    if (entry.versionOf !== row || entry.versionView !== view) {
      entry.version = versionOf(row, view);
      entry.versionOf = row;
      entry.versionView = view;
    }
    const version = entry.version!;
    const fanout = this.fanout;
    const missingRow = fanout.keepsRows && !entry.row;
    let complete = true;
    const subs = entry.subs;
    for (let i = 0; i < subs.length; i++) {
      const sub = subs[i]!;
      if (sub.stamp >= stamp || (onlyNew && sub.stamp !== 0)) continue;
      const template = entry.templates.get(sub.key);
      if (!template || template.version !== version || (!template.frame && template.fixedFrame === undefined) || missingRow) {
        complete = false;
        continue;
      }
      sub.stamp = stamp;
      if (isNewTo(sub, template, placement, fanout.writesUnchanged)) fanout.writeDiner(sub, template, placement, view, entry.row);
    }
    return complete;
  }

  /** Writes with the whole row at hand, building templates as needed. */
  private writeFromRow(
    entry: EntrySubscribers,
    row: EntryRow,
    placement: Placement,
    view: PositionView,
    stamp: number,
    onlyNew: boolean,
  ): void {
    const version = versionOf(row, view);
    if (this.fanout.keepsRows) entry.row = row;
    for (const sub of entry.subs) {
      if (sub.stamp >= stamp || (onlyNew && sub.stamp !== 0)) continue;
      let template = entry.templates.get(sub.key);
      if (!template || template.version !== version) {
        template = frameTemplate(buildTemplate(row, view, sub.isShared, sub.lang, placement));
        entry.templates.set(sub.key, template);
      }
      sub.stamp = stamp;
      if (template.frame || template.fixedFrame !== undefined) {
        if (isNewTo(sub, template, placement, this.fanout.writesUnchanged)) this.fanout.writeDiner(sub, template, placement, view, row);
      } else {
        noteSent(sub, undefined, placement);
        sub.stream.send(StreamMessage.position, renderFull(row, placement, view, sub.isShared, sub.lang));
      }
    }
  }

  /** Each diner subscriber's position message after these events. */
  private async writeDiners(
    rows: readonly QueueRow[],
    venue: Venue,
    paces: PaceBook,
    view: PositionView,
    events: VenueChannelEvent[],
    stamp: number,
    onlyNew: boolean,
    /** The consoles' entries, filled from the same walk when hosts are written too (whole rows then). */
    hostEntries: string[] | undefined,
    /** Events may have been missed: every entry that is not in the queue is read again too. */
    lost = false,
  ): Promise<void> {
    const placedNeedingRows = new Map<string, Placement>();
    forEachPlacement<QueueRow>(rows, venue, paces, (row, placement) => {
      if (hostEntries) hostEntries.push(hostEntryJson(row as EntryRow, placement));
      const entry = this.diners.get(row.id);
      if (!entry) return;
      entry.seenAt = stamp;
      // The walk reuses its placement object: copy the ones kept for later.
      if (!this.writeFromTemplates(entry, row, placement, view, stamp, onlyNew)) placedNeedingRows.set(row.id, { ...placement });
    });
    // Whole rows, one query for all: messages to build, and entries that left the queue (seated,
    // cancelled) which these events name, which a new stream follows, or any after a loss.
    const wanted = new Set(placedNeedingRows.keys());
    for (const e of events)
      if (e.entryId && this.diners.has(e.entryId) && this.diners.get(e.entryId)!.seenAt !== stamp) wanted.add(e.entryId);
    for (const [id, entry] of this.diners) if (entry.seenAt !== stamp && (lost || hasNew(entry))) wanted.add(id);
    for (const row of await findEntriesByIds(this.deps.db.kysely, [...wanted])) {
      const entry = this.diners.get(row.id);
      if (entry) this.writeFromRow(entry, row, placedNeedingRows.get(row.id) ?? NOT_WAITING, view, stamp, onlyNew);
    }
  }

  private async refresh(events: VenueChannelEvent[], snapshots: boolean, lost = false): Promise<void> {
    const stamp = nextStamp();
    this.read = true;
    // After a loss every stream is written, from the whole queue read again, as after a venue-wide event.
    const onlyNew = events.length === 0 && !lost;
    const db = this.deps.db.kysely;
    const forHosts = [...this.hosts].some((sub) => !onlyNew || sub.stamp === 0);
    // Changes only staff see (docs/product.md §7: deliveries, messages read) leave diner pages
    // alone: diners then get only the snapshots new streams wait for.
    const dinersChanged = onlyNew || lost || events.some((e) => !e.staffOnly);
    const forDiners = dinersChanged || snapshots;
    if (!forHosts && !forDiners) return;
    // Hosts see names and phones: whole rows, kept and patched like the narrow queue diners alone
    // need (queue-cache.ts): a change re-reads the entries it names, not the whole open queue.
    const changed = lost || events.some((e) => e.entryId === undefined) ? 'all' : [...new Set(events.map((e) => e.entryId!))];
    const [venue, rows, paces] = await Promise.all([
      getVenue(db, this.venueId),
      this.queue.current(db, changed, forHosts),
      findPaceOf(this.deps.pace, db, this.venueId, this.deps.now()),
    ]);
    const { hidePosition, operationMode, gettingCloseAt, gettingCloseMinutes } = venue.settings;
    // The same object while the settings stay: entries' kept versions hold while it does.
    const seen = this.view;
    const view =
      seen?.hidePosition === hidePosition &&
      seen.operationMode === operationMode &&
      seen.gettingCloseAt === gettingCloseAt &&
      seen.gettingCloseMinutes === gettingCloseMinutes
        ? seen
        : { hidePosition, operationMode, gettingCloseAt, gettingCloseMinutes };
    this.view = view;
    // One walk of the queue (each waiting party's estimate) for the diners and the consoles.
    const hostEntries = forHosts && forDiners ? [] : undefined;
    if (forDiners) await this.writeDiners(rows, venue, paces, view, events, stamp, onlyNew || !dinersChanged, hostEntries, lost);
    if (!forHosts) return;
    const data = hostQueueJson(rows as EntryRow[], venue, paces, events, hostEntries);
    for (const sub of this.hosts) {
      if (sub.stamp >= stamp || (onlyNew && sub.stamp !== 0)) continue;
      if (!sub.access.isAllowed()) {
        sub.stream.end();
        this.hosts.delete(sub);
        continue;
      }
      sub.stamp = stamp;
      sub.stream.send(StreamMessage.queue, data);
    }
  }
}

/**
 * Each kept row's console entry serialised once, split around its placement (the only part that
 * moves with the rest of the queue): the queue keeps a row object until that entry changes
 * (queue-cache.ts), so a change re-serialises the entries it names, not every entry of the queue.
 */
const hostParts = new WeakMap<EntryRow, { head: string; tail: string } | null>();
const PLACEMENT_START = ',"globalPos":';
const PLACEMENT_END = ',"quoted":';

function hostPartsOf(row: EntryRow): { head: string; tail: string } | null {
  let parts = hostParts.get(row);
  if (parts === undefined) {
    // Inside a JSON string every quote is escaped: these two keys are found only as keys.
    const json = JSON.stringify(toHostEntry(row, NOT_WAITING));
    const start = json.indexOf(PLACEMENT_START);
    const end = json.indexOf(PLACEMENT_END);
    parts = start > 0 && end > start ? { head: json.slice(0, start), tail: json.slice(end) } : null;
    hostParts.set(row, parts);
  }
  return parts;
}

/** One console entry, from the row's kept parts and its placement. */
function hostEntryJson(row: EntryRow, placement: Placement): string {
  const parts = hostPartsOf(row);
  return parts
    ? `${parts.head}${PLACEMENT_START}${JSON.stringify(placement.globalPos)},"pos":${JSON.stringify(placement.pos)},"estimatedTime":${JSON.stringify(placement.estimatedTime)},"estimatedRange":${JSON.stringify(placement.estimatedRange)}${parts.tail}`
    : JSON.stringify(toHostEntry(row, placement));
}

/**
 * The console's queue message: the same bytes as JSON.stringify of its HostStreamData. `entries`:
 * each row's console entry, already made in queue order by a walk the diners' messages shared.
 */
export function hostQueueJson(
  rows: readonly EntryRow[],
  venue: Venue,
  paces: PaceBook,
  events: VenueChannelEvent[],
  entries?: readonly string[],
): string {
  const waitlist = { active: venue.waitlistActive, locked: venue.waitlistLocked };
  if (!entries) {
    const made: string[] = [];
    forEachPlacement(rows, venue, paces, (row, placement) => made.push(hostEntryJson(row, placement)));
    entries = made;
  }
  return `{"events":${JSON.stringify(events)},"waitlist":${JSON.stringify(waitlist satisfies HostStreamData['waitlist'])},"entries":[${entries.join(',')}]}`;
}

function hasNew(entry: EntrySubscribers): boolean {
  for (const sub of entry.subs) if (sub.stamp === 0) return true;
  return false;
}

/** The template key of a diner subscriber: own or shared view, and language. */
export const viewKey = (isShared: boolean, lang: Language): string => (isShared ? `s${lang}` : `o${lang}`);
