import { ErrorCode } from '@vez/contract';
import type { Db } from '../../db/connect.js';
import type { EntryRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { newOrderedId } from '../../lib/ids.js';
import type { QueueDeps } from './queue-deps.js';
import { lockVenueForJoin } from '../venues/venues.service.js';
import { countStaffSendsSince, deleteStaffSendsBefore, insertStaffSend } from './staff-sends.repository.js';

/**
 * Sends that cost money are bounded for staff too (docs/security.md, staff send bounds): every
 * message staff send to a party (a message, a message sent again, a call) counts, per party over
 * 10 minutes and per venue over an hour. Counted in the store, inside the send's own transaction
 * with the venue's row locked, so every instance agrees and two tabs cannot both take the last one.
 */

const PARTY_WINDOW_MS = 10 * 60_000;
const VENUE_WINDOW_MS = 60 * 60_000;

/** Seconds until the oldest send in the window leaves it: then one more is allowed. */
const retryAfter = (oldest: number | null, windowMs: number, now: number) =>
  String(Math.max(1, Math.ceil(((oldest ?? now) + windowMs - now) / 1000)));

/**
 * Counts one staff send to this party, or refuses it with 429 and Retry-After (nothing is sent:
 * the caller's transaction rolls back). The first statement of the send's transaction, so the
 * venue row is locked before the entry's, in the join's order. A walk-in's join SMS counts for the
 * venue only (`scope: 'venue'`): its party is new, but staff typing numbers must not text the town.
 */
export async function claimStaffSend(
  deps: QueueDeps,
  trx: Db['kysely'],
  entry: EntryRow,
  scope: 'party' | 'venue' = 'party',
): Promise<void> {
  const bounds = deps.staffSendBounds;
  if (!bounds) return;
  const now = deps.now();
  await lockVenueForJoin(trx, entry.venue_id, deps.db.dialect);
  const party = scope === 'party' ? await countStaffSendsSince(trx, 'entry_id', entry.id, now - PARTY_WINDOW_MS) : undefined;
  if (party && party.n >= bounds.perParty10Min) {
    throw new AppError(
      ErrorCode.PARTY_SENDS_LIMITED,
      `This party was sent ${party.n} messages in 10 minutes: wait before sending again.`,
      undefined,
      { 'retry-after': retryAfter(party.oldest, PARTY_WINDOW_MS, now) },
    );
  }
  const venue = await countStaffSendsSince(trx, 'venue_id', entry.venue_id, now - VENUE_WINDOW_MS);
  if (venue.n >= bounds.perVenueHour) {
    throw new AppError(
      ErrorCode.VENUE_SENDS_LIMITED,
      `This venue sent ${venue.n} messages in the last hour: wait before sending again.`,
      undefined,
      { 'retry-after': retryAfter(venue.oldest, VENUE_WINDOW_MS, now) },
    );
  }
  await insertStaffSend(trx, { id: newOrderedId(now), venue_id: entry.venue_id, entry_id: entry.id, created_at: now });
}

/** The retention job's part: counts older than the longest window are of no use. */
export const pruneStaffSends = (db: Db, now: number): Promise<number> => deleteStaffSendsBefore(db.kysely, now - VENUE_WINDOW_MS);
