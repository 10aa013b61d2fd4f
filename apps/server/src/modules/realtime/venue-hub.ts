import { type HostStreamData, type Language, StreamMessage, type VenueChannelEvent } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import { toHostEntry } from '../host/host-entry-view.js';
import { getVenue } from '../venues/venues.service.js';
import type { Placement } from '../waitlist/entry-view.js';
import { findPace, listOpenEntries } from '../waitlist/waitlist.repository.js';
import type { WaitlistDeps } from '../waitlist/waitlist.service.js';
import { type PositionTemplate, type PositionView, buildTemplate, render, versionOf } from './position-template.js';
import { NOT_WAITING, forEachPlacement, placeQueue } from './queue-placement.js';
import { findEntriesByIds } from './realtime.repository.js';
import type { SseStream } from './sse-stream.js';

export interface DinerSubscriber {
  stream: SseStream;
  entryId: string;
  isShared: boolean;
  lang: Language;
  /** The refresh number of the newest state written: an older state is never written after it. */
  stamp: number;
}

export interface HostSubscriber {
  stream: SseStream;
  stamp: number;
}

/** The subscribers of one entry and their pre-serialised messages (one per view: own/shared, language). */
interface EntrySubscribers {
  subs: Set<DinerSubscriber>;
  templates: Map<string, PositionTemplate>;
}

/** Refresh numbers, process-wide and increasing: a later refresh read the store later. */
let refreshCounter = 0;
export const nextStamp = (): number => ++refreshCounter;

/**
 * The subscribers of one venue in this instance. On venue events it reads the queue ONCE (open
 * entries, pace, venue: three queries however many subscribers), walks it in memory and writes
 * each diner its own position and each host the whole queue. Events that arrive while a refresh
 * runs are folded into the next one, so a burst costs two refreshes, not N.
 */
export class VenueHub {
  readonly diners = new Map<string, EntrySubscribers>();
  readonly hosts = new Set<HostSubscriber>();
  private pending: VenueChannelEvent[] = [];
  private snapshotsWanted = false;
  private running = false;

  constructor(
    readonly venueId: string,
    private readonly deps: WaitlistDeps,
    private readonly onError: (error: unknown) => void,
  ) {}

  get size(): number {
    let n = this.hosts.size;
    for (const entry of this.diners.values()) n += entry.subs.size;
    return n;
  }

  /** Adds a stream; its first message (the snapshot) comes from the next refresh. */
  addDiner(sub: DinerSubscriber): void {
    let entry = this.diners.get(sub.entryId);
    if (!entry) this.diners.set(sub.entryId, (entry = { subs: new Set(), templates: new Map() }));
    entry.subs.add(sub);
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
    entry?.subs.delete(sub);
    if (entry?.subs.size === 0) this.diners.delete(sub.entryId);
  }

  onEvent(event: VenueChannelEvent): void {
    this.pending.push(event);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.length > 0 || this.snapshotsWanted) {
        const events = this.pending;
        this.pending = [];
        this.snapshotsWanted = false;
        await this.refresh(events).catch((error: unknown) => {
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

  /** `onlyNew`: a refresh without events serves only streams that have had nothing yet. */
  private writeDiners(entry: EntrySubscribers, row: EntryRow, placement: Placement, view: PositionView, stamp: number, onlyNew: boolean): void {
    const version = versionOf(row, view);
    for (const sub of entry.subs) {
      if (sub.stamp > stamp || (onlyNew && sub.stamp !== 0)) continue;
      const key = sub.isShared ? `s${sub.lang}` : `o${sub.lang}`;
      let template = entry.templates.get(key);
      if (!template || template.version !== version) {
        template = buildTemplate(row, view, sub.isShared, sub.lang, placement);
        entry.templates.set(key, template);
      }
      sub.stamp = stamp;
      sub.stream.send(StreamMessage.position, render(template, row, placement, view, sub.isShared, sub.lang));
    }
  }

  private async refresh(events: VenueChannelEvent[]): Promise<void> {
    const stamp = nextStamp();
    const db = this.deps.db.kysely;
    const [venue, open, paces] = await Promise.all([getVenue(db, this.venueId), listOpenEntries(db, this.venueId), findPace(db, this.venueId)]);
    const view: PositionView = { hidePosition: venue.settings.hidePosition, operationMode: venue.settings.operationMode };
    const onlyNew = events.length === 0;
    const seen = new Set<string>();
    forEachPlacement(open, venue, paces, (row, placement) => {
      const entry = this.diners.get(row.id);
      if (!entry) return;
      seen.add(row.id);
      this.writeDiners(entry, row, placement, view, stamp, onlyNew);
    });
    // Entries not in the queue any more (seated, cancelled) that these events name or that a new
    // stream follows: their final state, one query for all of them.
    const wanted = new Set<string>();
    for (const e of events) if (e.entryId && this.diners.has(e.entryId)) wanted.add(e.entryId);
    for (const [id, entry] of this.diners) for (const sub of entry.subs) if (sub.stamp === 0) wanted.add(id);
    const gone = [...wanted].filter((id) => !seen.has(id));
    for (const row of await findEntriesByIds(db, gone)) {
      const entry = this.diners.get(row.id);
      if (entry) this.writeDiners(entry, row, NOT_WAITING, view, stamp, onlyNew);
    }

    if (![...this.hosts].some((sub) => !onlyNew || sub.stamp === 0)) return;
    const placements = placeQueue(open, venue, paces);
    const queue: HostStreamData = {
      events,
      waitlist: { active: venue.waitlistActive, locked: venue.waitlistLocked },
      entries: open.map((row) => toHostEntry(row, placements.get(row.id) ?? NOT_WAITING)),
    };
    const data = JSON.stringify(queue);
    for (const sub of this.hosts) {
      if (sub.stamp > stamp || (onlyNew && sub.stamp !== 0)) continue;
      sub.stamp = stamp;
      sub.stream.send(StreamMessage.queue, data);
    }
  }
}
