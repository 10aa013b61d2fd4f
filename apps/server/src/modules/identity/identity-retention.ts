import type { Db } from '../../db/connect.js';
import { deleteUserEventsBefore } from './user-events.repository.js';
import { deleteExpiredCredentials } from './user-sessions.repository.js';

/** One-time codes are kept a day after they were sent (the send limits look back 10 minutes). */
const CODE_KEEP_MS = 24 * 3_600_000;

/**
 * The retention job's part of diners' accounts (docs/security.md, Retention): user events (the join
 * payloads of logged-in diners) recorded before `eventCutoff`, and the codes, passports and sessions
 * that have expired, which otherwise went only when someone asked for a new code. Answers how many
 * events went.
 */
export async function pruneIdentityData(db: Db, now: number, eventCutoff: number): Promise<number> {
  await deleteExpiredCredentials(db.kysely, now, now - CODE_KEEP_MS);
  return deleteUserEventsBefore(db.kysely, eventCutoff);
}
