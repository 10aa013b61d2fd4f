import type { HealthResponse } from '@vez/contract';
import type { Db } from '../../db/connect.js';
import { pingStore } from './health.repository.js';

/** A stuck pool must not make the probe hang longer than the prober waits. */
const PING_TIMEOUT_MS = 2_000;

/** Resolves when `ping` does within PING_TIMEOUT_MS; rejects otherwise. */
async function answersInTime(what: string, ping: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([ping(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ready when the store answers a query in time and, on an instance that shares events through
 * Redis (`redisPing`), Redis answers too; the errors, if any, are for the log.
 */
export async function checkHealth(db: Db, redisPing?: () => Promise<void>): Promise<{ health: HealthResponse; errors: unknown[] }> {
  const [store, redis] = await Promise.allSettled([
    answersInTime('store', () => pingStore(db.kysely)),
    redisPing ? answersInTime('redis', redisPing) : Promise.resolve(),
  ]);
  const errors = [store, redis].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  const health: HealthResponse = { status: errors.length === 0 ? 'ok' : 'unavailable', store: db.dialect };
  if (redisPing) health.redis = redis.status === 'fulfilled' ? 'ok' : 'unavailable';
  return { health, errors };
}
