import { ErrorCode, type Language, type PositionResponse, type StatusResponse, type WaitlistStatusesResponse } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import type { Venue } from '../venues/venue.js';
import { getVenue, toStatusesResponse } from '../venues/venues.service.js';
import { VENUE_WIDE_BAND, estimate } from '../estimate/index.js';
import { toPositionEntry } from './entry-views.js';
import { findPaceOf } from './queue-reads.service.js';
import { NOT_WAITING, type Placement, placementOf } from './placement.js';
import type { QueueDeps } from './queue-deps.js';
import { findEntryByAnyId } from './queue-reads.service.js';
import * as repo from './entries.repository.js';
import { placeOfNewest } from './waiting-counts.repository.js';

/** Where an entry stands: places ahead (global and in its band), parties called, and the estimate. */
export async function placeEntry(deps: QueueDeps, entry: EntryRow, venue: Venue): Promise<Placement> {
  if (entry.status !== 'active') return { ...NOT_WAITING };
  const db = deps.db.kysely;
  const [ahead, called, inBand, book] = await Promise.all([
    repo.countWaitingAhead(db, entry),
    repo.countCalled(db, venue.id),
    countsInBand(db, entry),
    findPaceOf(deps.pace, db, venue.id, deps.now()),
  ]);
  const { aheadByBand, calledByBand } = inBand;
  return placementOf(
    entry,
    venue,
    { ahead, called, aheadInBand: inBand.ahead, calledInBand: inBand.called, aheadByBand, calledByBand },
    book,
  );
}

/**
 * The place in the table-size band (advanced mode's `pos`, and the estimate in either mode) and
 * what stands before the entry per band (the estimate's size classes, estimator.ts): one more count.
 */
async function countsInBand(
  db: QueueDeps['db']['kysely'],
  entry: EntryRow,
): Promise<{ ahead: number; called: number; aheadByBand: number[]; calledByBand: number[] }> {
  const { aheadByBand, calledByBand } = await repo.countBeforeByBand(db, entry);
  return { ahead: aheadByBand[entry.band] ?? 0, called: calledByBand[entry.band] ?? 0, aheadByBand, calledByBand };
}

const NOTHING_BEFORE = { ahead: 0, called: 0, aheadByBand: [], calledByBand: [] };

export async function getPosition(deps: QueueDeps, waitlistId: string, lang: Language = 'pt'): Promise<PositionResponse> {
  // The hottest read of the product: one query for the entry and its counts, venue and pace kept.
  const db = deps.db.kysely;
  const own = await repo.findPlacedEntry(db, 'id', waitlistId);
  const placed = own ?? (await repo.findPlacedEntry(db, 'share_id', waitlistId));
  if (!placed) throw new AppError(ErrorCode.FAILED_TO_GET_WAITLIST_INFORMATION_WITH_POSITION);
  const { ahead, called, ...entry } = placed;
  const found = { entry: entry as EntryRow, isShared: !own };
  const [venue, book] = await Promise.all([getVenue(db, entry.venue_id), findPaceOf(deps.pace, db, entry.venue_id, deps.now())]);
  const inBand = entry.status === 'active' ? await countsInBand(db, found.entry) : NOTHING_BEFORE;
  const { aheadByBand, calledByBand } = inBand;
  const counts = { ahead, called, aheadInBand: inBand.ahead, calledInBand: inBand.called, aheadByBand, calledByBand };
  const placement = placementOf(found.entry, venue, counts, book);
  const hidePosition = venue.settings.hidePosition;
  const { operationMode, gettingCloseAt, gettingCloseMinutes } = venue.settings;
  return {
    waitlist: toPositionEntry(found.entry, placement, { hidePosition, operationMode, isShared: found.isShared, lang }),
    waitlistSettings: { hiddenCustomerPosition: hidePosition, operationMode, gettingCloseAt, gettingCloseMinutes },
  };
}

/** The position answer, serialised: kept from an earlier read while nothing changed at the venue. */
export async function getPositionJson(deps: QueueDeps, waitlistId: string, lang: Language = 'pt'): Promise<string> {
  const cache = deps.positions;
  // Own and share ids are distinct keys: each keeps its own view.
  const key = lang + waitlistId;
  const kept = cache?.recall(key);
  if (kept !== undefined) return kept;
  const since = cache?.mark() ?? 0;
  const answer = await getPosition(deps, waitlistId, lang);
  const json = JSON.stringify(answer);
  cache?.keep(key, answer.waitlist.venue, json, since);
  return json;
}

export async function findEntryAtVenue(deps: QueueDeps, waitlistId: string, venueId: string) {
  const found = await findEntryByAnyId(deps.db.kysely, waitlistId);
  if (!found) throw new AppError(ErrorCode.FAILED_TO_GET_WAITLIST_STATUS);
  if (found.entry.venue_id !== venueId) throw new AppError(ErrorCode.INVALID_VENUE);
  return found;
}

export async function getStatus(deps: QueueDeps, waitlistId: string, venueId: string): Promise<StatusResponse> {
  const { entry } = await findEntryAtVenue(deps, waitlistId, venueId);
  return {
    status: entry.status,
    cancelReason: entry.cancel_reason,
    notifiedAt: entry.notified_at === null ? null : new Date(entry.notified_at).toISOString(),
    seatedAt: entry.seated_at === null ? null : new Date(entry.seated_at).toISOString(),
  };
}

/**
 * Whether the list is open and, when the venue shows it (docs/product.md §4), the wait a party
 * joining now would be quoted: behind every party waiting, after those called, at the venue's
 * pace, for a party of any size (the size is not known yet).
 */
export async function getWaitlistStatuses(deps: QueueDeps, venueId: string): Promise<WaitlistStatusesResponse> {
  const db = deps.db.kysely;
  const venue = await getVenue(db, venueId);
  const answer = toStatusesResponse(venue);
  const { showWaitBeforeJoin, hidePosition } = venue.settings;
  if (!showWaitBeforeJoin || hidePosition || !venue.waitlistActive || venue.waitlistLocked) return answer;
  const [waiting, called, book] = await Promise.all([
    placeOfNewest(db, venueId, 0),
    repo.countCalled(db, venueId),
    findPaceOf(deps.pace, db, venueId, deps.now()),
  ]);
  const quote = estimate(book, VENUE_WIDE_BAND, { ahead: waiting, called, aheadInBand: 0, calledInBand: 0 });
  // Before a pace or history, the parties ahead alone (docs/product.md §4.3a).
  if (!quote) return { ...answer, currentWait: { partiesAhead: waiting } };
  return {
    ...answer,
    currentWait: { partiesAhead: waiting, estimatedTime: quote.time, estimatedRange: { low: quote.low, high: quote.high } },
  };
}
