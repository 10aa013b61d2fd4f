import { getVenue } from '../venues/venues.service.js';
import { gettingClosePlaces, isGettingClose, mayTellGettingClose } from './getting-close.js';
import { findPaceOf } from './queue-reads.service.js';
import { placeQueue } from './placement.js';
import type { QueueDeps } from './queue-deps.js';
import * as repo from './entries.repository.js';
import { runWriteTransaction } from '../../db/write-batch.js';

/**
 * Sends the "getting close" message to the parties the rule (getting-close.ts, docs/product.md §8)
 * says are close and may still be told, each claimed on its row (never twice). Checked after each
 * change that can move parties forward. The ranges are read only when a party near the front may
 * still be told, which after its message is none.
 */
export async function sendGettingClose(deps: QueueDeps, venueId: string): Promise<number> {
  if (!deps.hooks?.has('gettingClose')) return 0;
  const db = deps.db.kysely;
  const venue = await getVenue(db, venueId);
  const within = gettingClosePlaces(venue.settings);
  if (within === 0) return 0;
  const front = await repo.firstWaiting(db, venueId, within, deps.db.dialect === 'sqlite');
  const untold = front.filter(mayTellGettingClose);
  if (untold.length === 0) return 0;
  // Each party's range, as its page shows it (placement.ts): what stands before a party at the
  // front is the called parties and the waiting ones before it in `front`, so the called parties'
  // bands and `front` place them exactly as the whole open queue would, without reading it.
  const [called, book] = await Promise.all([repo.listCalledBands(db, venueId), findPaceOf(deps.pace, db, venueId, deps.now())]);
  const placements = placeQueue([...called, ...front], venue, book);
  let sent = 0;
  for (const [index, entry] of front.entries()) {
    if (!mayTellGettingClose(entry)) continue;
    const rangeHigh = placements.get(entry.id)?.estimatedRange?.high ?? null;
    if (!isGettingClose(venue.settings, index + 1, rangeHigh)) continue;
    // Later than the join's own time even on a clock that has not moved: that time means joined close (getting-close.ts).
    const now = Math.max(deps.now(), entry.created_at + 1);
    // Through the write batch: on SQLite the claim and its message share a commit with the writes
    // queued meanwhile, the previous message's delivery marks among them (docs/decisions/046-fewer-commits-per-change.md).
    const claimed = await runWriteTransaction(deps.db, async (trx) => {
      const row = await repo.claimGettingClose(trx, entry.id, now);
      if (!row) return false;
      await deps.hooks?.run('gettingClose', trx, row, index + 1);
      return true;
    });
    if (claimed) sent += 1;
  }
  return sent;
}

/**
 * Runs the getting-close check after a change committed, before it is answered (what the answer
 * acknowledges is complete); a failure of the check is reported, never thrown: the change stands.
 */
export async function afterQueueMoved(deps: QueueDeps, venueId: string): Promise<void> {
  if (!deps.hooks?.has('gettingClose')) return;
  // The change's fan-out first: the venue's streams took it at publish and refresh on the next
  // turn of the event loop (realtime/venue-hub.ts). On SQLite the check reads the whole open queue
  // synchronously (300 ms and more with 10,000 parties), and every page waited for it
  // (docs/decisions/035-fan-out-before-after-commit-work.md).
  await new Promise((resolve) => setImmediate(resolve));
  await sendGettingClose(deps, venueId).catch((error: unknown) => deps.onBackgroundError?.(error));
}
