import { getVenue } from '../venues/venues.service.js';
import type { QueueDeps } from './queue-deps.js';
import * as repo from './entries.repository.js';
import { inTransaction } from '../../db/transaction.js';

/**
 * One "getting close" message when a party reaches `gettingCloseAt` places from the front
 * (docs/product.md §8): never twice (a claim on the row), never after a call, never to a party that
 * joined already that close. Checked after each change that can move parties forward.
 */
export async function sendGettingClose(deps: QueueDeps, venueId: string): Promise<number> {
  if (!deps.onGettingClose) return 0;
  const venue = await getVenue(deps.db.kysely, venueId);
  const within = venue.settings.gettingCloseAt;
  if (within === 0) return 0;
  const front = await repo.firstWaiting(deps.db.kysely, venueId, within);
  let sent = 0;
  for (const [index, entry] of front.entries()) {
    if (entry.getting_close_at !== null || entry.notified_at !== null) continue;
    const now = deps.now();
    const claimed = await inTransaction(deps.db.kysely, async (trx) => {
      if (!(await repo.claimGettingClose(trx, entry.id, now))) return false;
      await deps.onGettingClose?.(trx, { ...entry, getting_close_at: now }, index + 1);
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
  if (!deps.onGettingClose) return;
  await sendGettingClose(deps, venueId).catch((error: unknown) => deps.onBackgroundError?.(error));
}
