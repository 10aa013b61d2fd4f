import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { Notifier } from '../notifications/notifier.js';

export interface IdentityDeps {
  db: Db;
  now: () => number;
  notifier: Notifier;
  config: Config;
  /** The key of the client addresses' hashes kept with codes (`clientKeyOf`), the same on every instance. */
  addressSecret: () => Promise<string>;
}

/** docs/product.md §3.4: 10 minutes, 5 wrong tries; the send windows are 10 minutes too. */
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_TRIES = 5;
export const SEND_WINDOW_MS = 10 * 60_000;
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;
/** A passport travels in an SMS link; it is good for one exchange within an hour. */
export const PASSPORT_TTL_MS = 60 * 60_000;
