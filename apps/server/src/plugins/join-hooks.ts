import type { JoinHook } from '../modules/waitlist/waitlist.service.js';

/** Work other modules attach to a join's transaction (for example the durable message queue). */
export interface JoinHooks {
  add(hook: JoinHook): void;
  run: JoinHook;
}

export function createJoinHooks(): JoinHooks {
  const hooks: JoinHook[] = [];
  return {
    add: (hook) => void hooks.push(hook),
    run: async (trx, entry, venue) => {
      for (const hook of hooks) await hook(trx, entry, venue);
    },
  };
}
