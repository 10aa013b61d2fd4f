import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../../db/types.js';
import { isOpen } from './entry-state.js';
import { comesBefore } from './placement.js';
import { type QueueRow, findOpenRowsOfVenueByIds, findQueueRowsByIds, listOpenEntries, listQueueOrder } from './entries.repository.js';

/**
 * Past this, the next refresh reads the whole queue again (a missed event heals by itself); the
 * hub gives its instance's own bound instead (position-cache.ts `standsMs`: ten minutes on one
 * instance, whose bus loses no event: docs/decisions/052-venues-kept-while-heard.md).
 */
const RESYNC_MS = 30_000;
/** More entries than this in one batch of events: reading the whole queue is simpler. */
const MAX_PATCH = 50;

/**
 * A venue's open queue kept in memory between changes: a change re-reads only the entries its
 * events name (one query) and moves them in the ordered list, instead of reading every open
 * entry again. Applying an event means "take this entry's current row", so it does not matter
 * whether the event arrived before or after a full read. Venue-wide events and large batches
 * read the whole queue; so does the first refresh after RESYNC_MS (or the hub's own bound).
 *
 * Asked for `whole` rows (a venue with a console open: hosts see names and phones), it keeps whole
 * rows and patches them the same way: a change at a venue with a console re-reads the entries it
 * names, not the whole open queue with every column (docs/decisions/040-hub-keeps-whole-rows.md).
 * Whole rows are a superset of the narrow ones, so a kept whole queue also serves the diners.
 */
export class QueueCache {
  private rows: QueueRow[] | undefined;
  private readAt = 0;
  /** The kept rows are whole EntryRows (read for a console), not only the queue's columns. */
  private whole = false;

  constructor(
    private readonly venueId: string,
    private readonly now: () => number = Date.now,
    private readonly resyncMs = RESYNC_MS,
  ) {}

  async current(db: Kysely<Database>, changedIds: readonly string[] | 'all', whole?: false): Promise<readonly QueueRow[]>;
  async current(
    db: Kysely<Database>,
    changedIds: readonly string[] | 'all',
    whole: boolean,
  ): Promise<readonly QueueRow[] | readonly EntryRow[]>;
  async current(db: Kysely<Database>, changedIds: readonly string[] | 'all', whole = false): Promise<readonly QueueRow[]> {
    const stale = !this.rows || this.now() - this.readAt > this.resyncMs || (whole && !this.whole);
    if (stale || changedIds === 'all' || changedIds.length > MAX_PATCH) {
      const readAt = this.now();
      this.rows = await (whole ? listOpenEntries(db, this.venueId) : listQueueOrder(db, this.venueId));
      this.whole = whole;
      this.readAt = readAt;
      return this.rows;
    }
    if (changedIds.length === 0) return this.rows!;
    const fresh = await (this.whole
      ? findOpenRowsOfVenueByIds(db, this.venueId, changedIds)
      : findQueueRowsByIds(db, this.venueId, changedIds));
    const rows = this.rows!.filter((row) => !changedIds.includes(row.id));
    for (const row of fresh) if (isOpen(row.status)) insertInOrder(rows, row);
    this.rows = rows;
    return rows;
  }

  /** Forget the queue (the next refresh reads it whole). */
  invalidate(): void {
    this.rows = undefined;
  }
}

function insertInOrder(rows: QueueRow[], row: QueueRow): void {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comesBefore(rows[mid]!, row)) lo = mid + 1;
    else hi = mid;
  }
  rows.splice(lo, 0, row);
}
