import type { Db } from '../../db/connect.js';
import { claimWebhookKey, deleteWebhookKeysBefore, releaseWebhookKey } from './webhook-sids.repository.js';

/**
 * A provider webhook carrying a MessageSid already seen is answered and ignored (docs/security.md,
 * webhook replay): Twilio delivers again when an answer is slow, and a signed request can be sent
 * again by whoever captured it (the signature has no time in it). An inbound SMS is keyed by its
 * sid; a delivery report by its sid and status, since one message legitimately reports `sent`, then
 * `delivered`.
 */

/**
 * How long a seen sid is kept: far past Twilio's own retries (minutes); a replay after that finds
 * the party long ended. A sid is no personal data, so this is not RETENTION_HOURS.
 */
export const WEBHOOK_SIDS_KEEP_MS = 30 * 24 * 3_600_000;

/**
 * Runs `act` unless this delivery was seen: its result, or undefined for a delivery seen before. A
 * failure gives the claim back, so the provider's retry is not lost.
 */
export async function onceForDelivery<T>(
  db: Db,
  key: string | undefined,
  now: number,
  act: () => Promise<T>,
): Promise<{ value: T } | undefined> {
  if (key !== undefined && !(await claimWebhookKey(db.kysely, key, now))) return undefined;
  try {
    return { value: await act() };
  } catch (error) {
    if (key !== undefined) await releaseWebhookKey(db.kysely, key);
    throw error;
  }
}

/** The retention job's part: seen sids older than WEBHOOK_SIDS_KEEP_MS go. */
export const pruneSeenWebhooks = (db: Db, now: number): Promise<number> => deleteWebhookKeysBefore(db.kysely, now - WEBHOOK_SIDS_KEEP_MS);
