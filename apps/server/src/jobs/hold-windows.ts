import type { FastifyInstance } from 'fastify';
import { endExpiredHolds } from '../modules/queue/index.js';

/** How often each instance looks for hold windows that ran out (docs/product.md §8). */
export const HOLD_CHECK_MS = 5_000;

/** Looks for ended hold windows from `ready` to `close`; failures are reported, never thrown. */
export function scheduleHoldWindows(app: FastifyInstance, now: () => number): void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await endExpiredHolds(app.queueDeps, now());
    } catch (error) {
      app.reporter.report(error, { job: 'hold-windows' });
    } finally {
      running = false;
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void tick(), HOLD_CHECK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
