import { getVenue } from '../venues/venues.service.js';
import { gettingClosePlaces, isGettingClose, mayTellGettingClose } from './getting-close.js';
import type { QueueDeps } from './queue-deps.js';
import * as repo from './entries.repository.js';
import { inTransaction } from '../../db/transaction.js';

/**
 * Sends the "getting close" message to the parties the rule (getting-close.ts, docs/product.md §8)
 * says are close and may still be told, each claimed on its row (never twice). Checked after each
 * change that can move parties forward.
 */
export async function sendGettingClose(deps: QueueDeps, venueId: string): Promise<number> {
  if (!deps.hooks?.has('gettingClose')) return 0;
  const venue = await getVenue(deps.db.kysely, venueId);
  const within = gettingClosePlaces(venue.settings);
  if (within === 0) return 0;
  const front = await repo.firstWaiting(deps.db.kysely, venueId, within);
  let sent = 0;
  for (const [index, entry] of front.entries()) {
    if (!isGettingClose(venue.settings, index + 1) || !mayTellGettingClose(entry)) continue;
    const now = deps.now();
    const claimed = await inTransaction(deps.db.kysely, async (trx) => {
      if (!(await repo.claimGettingClose(trx, entry.id, now))) return false;
      await deps.hooks?.run('gettingClose', trx, { ...entry, getting_close_at: now }, index + 1);
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
  await sendGettingClose(deps, venueId).catch((error: unknown) => deps.onBackgroundError?.(error));
}
