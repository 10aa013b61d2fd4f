import type { Db } from '../db/connect.js';
import { pruneIdentityData } from '../modules/identity/identity-retention.js';
import { pruneSeenWebhooks } from '../modules/notifications/webhook-replay.js';
import { type QueueDeps, erasePersonalDataEndedBefore, expireOpenEntries, pruneJoinKeys, pruneStaffSends } from '../modules/queue/index.js';
import { pruneTeamData } from '../modules/staff/invites.service.js';
import type { Job } from './scheduler.js';

const HOUR = 3_600_000;

/**
 * Erases the name, phone, email and note of entries that ended (seated, cancelled, removed) more
 * than `retentionHours` ago. Counts and times stay for the venue's figures.
 */
export function runRetention(db: Db, retentionHours: number, now = Date.now()): Promise<number> {
  return erasePersonalDataEndedBefore(db.kysely, now - retentionHours * HOUR, now);
}

export interface RetentionOptions {
  retentionHours: number;
  /** Parties still waiting or called this long after joining are ended (reason `Expired`). */
  openMaxHours: number;
}

/**
 * One run of the job: parties left open longer than `openMaxHours` are ended first, then the
 * personal data of every entry ended more than `retentionHours` ago is erased (the expired ones
 * too, once their own retention period has passed). Personal data held outside entries goes too
 * (docs/security.md, Retention): diners' user events recorded more than `retentionHours` ago,
 * expired codes, login links and sessions (diners' and staff's), and team invitations used or
 * expired that long ago. Old staff send counts, webhook sids and joins' idempotency keys go as well.
 */
export async function runRetentionJob(
  deps: QueueDeps,
  options: RetentionOptions,
  now = deps.now(),
): Promise<{ expired: number; erased: number; userEvents: number; invites: number }> {
  const expired = await expireOpenEntries(deps, now - options.openMaxHours * HOUR, now);
  const erased = await runRetention(deps.db, options.retentionHours, now);
  // No kept position answer may still show an erased name.
  if (erased > 0) deps.positions?.clear();
  // Counts of staff sends and seen webhook sids are kept only as long as they guard (docs/security.md).
  await pruneStaffSends(deps.db, now);
  await pruneSeenWebhooks(deps.db, now);
  // Joins' Idempotency-Keys are answered for a day (docs/product.md §3.9).
  await pruneJoinKeys(deps.db, now);
  const cutoff = now - options.retentionHours * HOUR;
  const userEvents = await pruneIdentityData(deps.db, now, cutoff);
  const invites = await pruneTeamData(deps.db.kysely, cutoff, now);
  return { expired, erased, userEvents, invites };
}

/** The retention job for the app's scheduler (jobs/scheduler.ts): at ready, then every `intervalMinutes`. */
export function retentionJob(
  deps: QueueDeps,
  options: RetentionOptions & {
    intervalMinutes: number;
    onExpired?: (n: number) => void;
    onErased?: (n: number) => void;
  },
): Job {
  return {
    name: 'retention',
    everyMs: options.intervalMinutes * 60_000,
    runAtReady: true,
    run: async () => {
      const { expired, erased } = await runRetentionJob(deps, options);
      if (expired > 0) options.onExpired?.(expired);
      if (erased > 0) options.onErased?.(erased);
    },
  };
}
