import { ErrorCode, type Language, type UserEventBody, type UserEventResponse } from '@vez/contract';
import type { ProductUserRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { newEntryId } from '../../lib/ids.js';
import { findEntryById } from '../queue/index.js';
import type { IdentityDeps } from './identity-deps.js';
import { insertUserEvent, keepNewestUserEvents } from './user-events.repository.js';
import { text } from './identity-texts.js';

const MAX_EVENT_BODY = 8 * 1024;

/**
 * POST /product-user/event: the waitlist login and waitlist enter events of a logged-in user.
 * `waitlist-enter` names the entry it created, which must be at the event's venue.
 */
export async function recordEvent(
  deps: IdentityDeps,
  user: ProductUserRow,
  body: UserEventBody,
  lang: Language,
): Promise<UserEventResponse> {
  const waitlistId = body.eventBody.waitlistId ?? null;
  if (body.eventType === 'waitlist-enter' && !waitlistId) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'waitlistIdRequired'), 'eventBody.waitlistId');
  }
  if (waitlistId) {
    const entry = await findEntryById(deps.db.kysely, waitlistId);
    if (!entry || entry.venue_id !== body.venueId) {
      throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'entryNotFound'), 'eventBody.waitlistId');
    }
  }
  const json = JSON.stringify(body.eventBody);
  if (json.length > MAX_EVENT_BODY) throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'eventTooLarge'), 'eventBody');
  const now = deps.now();
  const id = newEntryId();
  await insertUserEvent(deps.db.kysely, {
    id,
    user_id: user.id,
    venue_id: body.venueId,
    event_type: body.eventType,
    event_body: json,
    waitlist_id: waitlistId,
    created_at: now,
  });
  // Each account keeps its newest USER_EVENTS_MAX_PER_USER events (docs/decisions/026): never refused,
  // the page records them after the join has succeeded.
  await keepNewestUserEvents(deps.db.kysely, user.id, deps.config.USER_EVENTS_MAX_PER_USER);
  return { _id: id, eventType: body.eventType, createdAt: new Date(now).toISOString() };
}
