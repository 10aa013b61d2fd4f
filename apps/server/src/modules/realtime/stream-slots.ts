import { ErrorCode } from '@vez/contract';
import { AppError } from '../../lib/app-error.js';

export interface StreamLimits {
  /** SSE_MAX_STREAMS_PER_ENTRY: own and share link together. */
  perEntry: number;
  /** SSE_MAX_STREAMS_PER_ADDRESS: diner and host streams together. */
  perAddress: number;
}

/** A taken slot; `release` is idempotent and runs when the stream closes. */
export interface StreamSlot {
  release(): void;
}

const RETRY_AFTER_SECONDS = '10';

const tooMany = (message: string) => new AppError(ErrorCode.RATE_LIMITED, message, undefined, { 'retry-after': RETRY_AFTER_SECONDS });

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

/**
 * Counts open streams per entry and per client address (docs/security.md): one address cannot
 * hold the instance's sockets, nor one leaked link a thousand streams. Only opening and closing a
 * stream touch it, never the fan-out.
 */
export function createStreamSlots(limits: StreamLimits) {
  const byEntry = new Map<string, number>();
  const byAddress = new Map<string, number>();
  return {
    /** Takes a slot for a stream from `address` (about `entryId`, for a diner) or throws 429. */
    take(address: string, entryId?: string): StreamSlot {
      if ((byAddress.get(address) ?? 0) >= limits.perAddress) {
        throw tooMany('Too many live updates are open from this network. Close some pages and try again in a moment.');
      }
      if (entryId !== undefined && (byEntry.get(entryId) ?? 0) >= limits.perEntry) {
        throw tooMany('Too many live updates are open for this place in line. Close another tab and try again.');
      }
      bump(byAddress, address, 1);
      if (entryId !== undefined) bump(byEntry, entryId, 1);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          bump(byAddress, address, -1);
          if (entryId !== undefined) bump(byEntry, entryId, -1);
        },
      };
    },
  };
}
