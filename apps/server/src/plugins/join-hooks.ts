import type { FastifyRequest } from 'fastify';
import type { JoinHook } from '../modules/waitlist/waitlist.service.js';

/** A join hook that may also read the join's request (for example the logged-in diner's cookie). */
export type RequestJoinHook = (...args: [...Parameters<JoinHook>, request?: FastifyRequest]) => Promise<void>;

/** Work other modules attach to a join's transaction (for example the durable message queue). */
export interface JoinHooks {
  add(hook: RequestJoinHook): void;
  /** The hooks without a request (walk-ins added by staff, scripts). */
  run: JoinHook;
  /** The hooks for a diner's own join request. */
  forRequest(request: FastifyRequest): JoinHook;
  /** Work for a repeat join that sends the link again (decisions §3); no request: nothing of the caller's reaches it. */
  addRepeat(hook: JoinHook): void;
  repeat: JoinHook;
}

export function createJoinHooks(): JoinHooks {
  const hooks: RequestJoinHook[] = [];
  const repeatHooks: JoinHook[] = [];
  const forRequest =
    (request?: FastifyRequest): JoinHook =>
    async (trx, entry, venue) => {
      for (const hook of hooks) await hook(trx, entry, venue, request);
    };
  return {
    add: (hook) => void hooks.push(hook),
    run: forRequest(),
    forRequest,
    addRepeat: (hook) => void repeatHooks.push(hook),
    repeat: async (trx, entry, venue) => {
      for (const hook of repeatHooks) await hook(trx, entry, venue);
    },
  };
}
