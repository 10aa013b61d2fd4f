import { type HostStreamData, type Language, type PositionResponse, StreamMessage, type VenueChannelEvent } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import { toHostEntry } from '../host/host-entry-view.js';
import { getVenue } from '../venues/venues.service.js';
import { toPositionEntry } from '../waitlist/entry-view.js';
import { findPace, listOpenEntries } from '../waitlist/waitlist.repository.js';
import type { WaitlistDeps } from '../waitlist/waitlist.service.js';
import { NOT_WAITING, placeQueue } from './queue-placement.js';
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

/** Refresh numbers, process-wide and increasing: a later refresh read the store later. */
let refreshCounter = 0;
export const nextStamp = (): number => ++refreshCounter;

/**
 * The subscribers of one venue in this instance. On venue events it reads the queue ONCE (open
 * entries, pace, venue: three queries however many subscribers), places every entry in memory
 * and writes each diner its own position and each host the whole queue. Events that arrive
 * while a refresh runs are folded into the next one, so a burst costs two refreshes, not N.
 */
export class VenueHub {
  readonly diners = new Map<string, Set<DinerSubscriber>>();
  readonly hosts = new Set<HostSubscriber>();
  private pending: VenueChannelEvent[] = [];
  private running = false;

  constructor(
    readonly venueId: string,
    private readonly deps: WaitlistDeps,
    private readonly onError: (error: unknown) => void,
  ) {}

  get size(): number {
    let n = this.hosts.size;
    for (const set of this.diners.values()) n += set.size;
    return n;
  }

  addDiner(sub: DinerSubscriber): void {
    let set = this.diners.get(sub.entryId);
    if (!set) this.diners.set(sub.entryId, (set = new Set()));
    set.add(sub);
  }

  removeDiner(sub: DinerSubscriber): void {
    const set = this.diners.get(sub.entryId);
    set?.delete(sub);
    if (set?.size === 0) this.diners.delete(sub.entryId);
  }

  onEvent(event: VenueChannelEvent): void {
    this.pending.push(event);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.length > 0) {
        const events = this.pending;
        this.pending = [];
        await this.refresh(events).catch(this.onError);
      }
    } finally {
      this.running = false;
    }
  }

  private async refresh(events: VenueChannelEvent[]): Promise<void> {
    const stamp = nextStamp();
    const db = this.deps.db.kysely;
    const [venue, open, paces] = await Promise.all([getVenue(db, this.venueId), listOpenEntries(db, this.venueId), findPace(db, this.venueId)]);
    const placements = placeQueue(open, venue, paces);
    const rows = new Map<string, EntryRow>();
    for (const row of open) rows.set(row.id, row);
    // Entries named by these events that left the queue: their final state, one query for all.
    const gone = events.map((e) => e.entryId).filter((id): id is string => id !== undefined && !rows.has(id) && this.diners.has(id));
    for (const row of await findEntriesByIds(db, [...new Set(gone)])) rows.set(row.id, row);

    const view = { hidePosition: venue.settings.hidePosition, operationMode: venue.settings.operationMode };
    const waitlistSettings = { hiddenCustomerPosition: view.hidePosition, operationMode: view.operationMode };
    for (const [entryId, subs] of this.diners) {
      const row = rows.get(entryId);
      if (!row) continue; // ended earlier and already told
      const placement = placements.get(entryId) ?? NOT_WAITING;
      const cache = new Map<string, string>();
      for (const sub of subs) {
        if (sub.stamp > stamp) continue;
        const key = `${sub.isShared}:${sub.lang}`;
        let data = cache.get(key);
        if (data === undefined) {
          const message: PositionResponse = {
            waitlist: toPositionEntry(row, placement, { ...view, isShared: sub.isShared, lang: sub.lang }),
            waitlistSettings,
          };
          data = JSON.stringify(message);
          cache.set(key, data);
        }
        sub.stamp = stamp;
        sub.stream.send(StreamMessage.position, data);
      }
    }

    if (this.hosts.size === 0) return;
    const queue: HostStreamData = {
      events,
      waitlist: { active: venue.waitlistActive, locked: venue.waitlistLocked },
      entries: open.map((row) => toHostEntry(row, placements.get(row.id) ?? NOT_WAITING)),
    };
    const data = JSON.stringify(queue);
    for (const sub of this.hosts) {
      if (sub.stamp > stamp) continue;
      sub.stamp = stamp;
      sub.stream.send(StreamMessage.queue, data);
    }
  }
}
