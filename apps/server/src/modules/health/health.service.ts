import type { HealthResponse } from '@vez/contract';
import type { Db } from '../../db/connect.js';
import { pingStore } from './health.repository.js';

/** A stuck pool must not make the probe hang longer than the prober waits. */
const PING_TIMEOUT_MS = 2_000;

/** Ready when the store answers a query in time; the error, if any, is for the log. */
export async function checkHealth(db: Db): Promise<{ health: HealthResponse; error?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`store did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([pingStore(db.kysely), timeout]);
    return { health: { status: 'ok', store: db.dialect } };
  } catch (error) {
    return { health: { status: 'unavailable', store: db.dialect }, error };
  } finally {
    clearTimeout(timer);
  }
}
