import type { Db } from '../../db/connect.js';
import type { EntryRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';

/**
 * What a join's hooks may know of the caller, read by the route before the join: the diner's own
 * session (to give a logged-in diner's SMS link a login passport). Never the HTTP request.
 */
export interface JoinContext {
  dinerSessionToken?: string | undefined;
}

/** Work to do inside a join's transaction (the durable message queue hooks in here). */
export type JoinHook = (trx: Db['kysely'], entry: EntryRow, venue: Venue, context: JoinContext) => Promise<void>;

/** Work other modules attach to a join's transaction (for example the durable message queue). */
export interface JoinHooks {
  add(hook: JoinHook): void;
  /** The hooks of a new entry. */
  run: JoinHook;
  /** Work for a repeat join that sends the link again: nothing of the caller's reaches it. */
  addRepeat(hook: JoinHook): void;
  repeat: JoinHook;
}

export function createJoinHooks(): JoinHooks {
  const hooks: JoinHook[] = [];
  const repeatHooks: JoinHook[] = [];
  return {
    add: (hook) => void hooks.push(hook),
    run: async (trx, entry, venue, context) => {
      for (const hook of hooks) await hook(trx, entry, venue, context);
    },
    addRepeat: (hook) => void repeatHooks.push(hook),
    repeat: async (trx, entry, venue) => {
      for (const hook of repeatHooks) await hook(trx, entry, venue, {});
    },
  };
}
