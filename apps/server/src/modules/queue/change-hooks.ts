import type { Db } from '../../db/connect.js';
import type { EntryRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';

type Trx = Db['kysely'];

/**
 * What a join's hooks may know of the caller, read by the route before the join: the diner's own
 * session (to give a logged-in diner's SMS link a login passport). Never the HTTP request.
 */
export interface JoinContext {
  dinerSessionToken?: string | undefined;
}

/**
 * The changes of an entry other modules may add work to, and what that work is handed. Every hook
 * runs inside the change's transaction (the durable message queue queues its SMS there, so the
 * message and the change commit together: docs/decisions/003-message-queue.md).
 */
export interface ChangeHookArgs {
  /** A new entry, a diner's join or a walk-in, with what the route knows of the caller. */
  join: [trx: Trx, entry: EntryRow, venue: Venue, context: JoinContext];
  /** A repeat join that sends the link again (at most once a minute): nothing of the caller's reaches it. */
  repeatJoin: [trx: Trx, entry: EntryRow, venue: Venue];
  /** Staff call the party, or call it again (docs/product.md §8). */
  call: [trx: Trx, entry: EntryRow];
  /** The party is seated. */
  seat: [trx: Trx, entry: EntryRow];
  /** The party's hold window ran out at a venue that marks no-shows itself (hold-window.ts). */
  noShow: [trx: Trx, entry: EntryRow];
  /** The party reached the venue's getting-close place (getting-close.ts), claimed once. */
  gettingClose: [trx: Trx, entry: EntryRow, place: number];
}

export type ChangeKind = keyof ChangeHookArgs;
export type ChangeHook<K extends ChangeKind> = (...args: ChangeHookArgs[K]) => Promise<void>;

/**
 * The one registry of work that must run inside a change's transaction: modules add to it when the
 * app is built (`on`), the queue's services run it (`run`); no route has to remember a hook.
 */
export interface ChangeHooks {
  on<K extends ChangeKind>(kind: K, hook: ChangeHook<K>): void;
  run<K extends ChangeKind>(kind: K, ...args: ChangeHookArgs[K]): Promise<void>;
  /** Whether any module wants this change: work that only feeds a hook (the getting-close check) is skipped without one. */
  has(kind: ChangeKind): boolean;
}

export function createChangeHooks(): ChangeHooks {
  const hooks: { [K in ChangeKind]: ChangeHook<K>[] } = { join: [], repeatJoin: [], call: [], seat: [], noShow: [], gettingClose: [] };
  return {
    on: (kind, hook) => void hooks[kind].push(hook),
    async run(kind, ...args) {
      for (const hook of hooks[kind]) await hook(...args);
    },
    has: (kind) => hooks[kind].length > 0,
  };
}
