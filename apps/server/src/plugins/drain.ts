import net from 'node:net';
import { ErrorCode, errorCatalogue } from '@vez/contract';
import type { FastifyInstance } from 'fastify';

/**
 * How long an idle keep-alive connection stays open on the server's side. Longer than the proxy's
 * own (`keepalive_timeout 4s` in the upstream block of docs/deploy.md), so the proxy always closes
 * an idle connection first: a request it writes to one the server is closing at that moment would
 * fail after it was sent, and a join is never passed to another instance then (docs/deploy.md,
 * "Restarting without an error"). Under the shutdown deadline of main.ts, so an idle client that
 * never closes does not hold the exit.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 6_000;

/** No new connection for this long, and the proxy has stopped sending here: the listener can close. */
const QUIET_MS = 300;
/** The listener closes after this long whatever still arrives (a proxy sending only writes). */
const QUIET_MAX_MS = 2_000;

/** Answered as usual while draining: what a prober or a scraper asks this very instance. */
const ANSWERED_WHILE_DRAINING = new Set(['/api/health', '/api/health/live', '/metrics']);

export interface Drain {
  isDraining(): boolean;
  /** Runs once when draining starts (realtime hands its streams over). */
  onStart(listener: () => void): void;
  /**
   * Fails readiness, answers every request with `Connection: close` and every read with 503 (which
   * the proxy passes to another instance, counting this one as failed: it stops sending here).
   * Then, once no new connection came for a moment, stops accepting, and resolves when every
   * connection has closed: requests in flight answered, idle keep-alive ones closed by the proxy
   * (or by the keep-alive timeout). The server never closes one the proxy may be writing to.
   */
  drain(): Promise<void>;
}

/** docs/deploy.md "Restarting without an error": the order in which an instance leaves its proxy. */
export function registerDrain(app: FastifyInstance): Drain {
  let draining = false;
  let lastConnectionAt = 0;
  const listeners: (() => void)[] = [];
  app.server.on('connection', () => {
    lastConnectionAt = Date.now();
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    // Not reused by the proxy: the connection closes once this answer is out.
    if (request.raw.httpVersionMajor < 2) reply.header('connection', 'close');
    const path = request.url.split('?')[0]!;
    if ((request.method === 'GET' || request.method === 'HEAD') && !ANSWERED_WHILE_DRAINING.has(path)) {
      // A read is safe to repeat: the proxy (`proxy_next_upstream … http_503`) asks another instance,
      // and marks this one failed (`max_fails=1`), so it sends no more here. Writes are served: a
      // write that reached an instance is never passed to another one (it may have been applied).
      const { status, message } = errorCatalogue[ErrorCode.SERVER_RESTARTING];
      return reply.code(status).header('retry-after', '1').send({ statusCode: status, code: ErrorCode.SERVER_RESTARTING, message });
    }
  });

  const quiet = () =>
    new Promise<void>((resolve) => {
      const startedAt = Date.now();
      const check = () => {
        const now = Date.now();
        const idleFor = now - lastConnectionAt;
        if (idleFor >= QUIET_MS || now - startedAt >= QUIET_MAX_MS) resolve();
        else setTimeout(check, QUIET_MS - idleFor);
      };
      setTimeout(check, QUIET_MS);
    });

  return {
    isDraining: () => draining,
    onStart: (listener) => listeners.push(listener),
    async drain() {
      if (draining) return;
      draining = true;
      for (const listener of listeners) listener();
      await quiet();
      // Stop accepting. http.Server#close would also close every idle keep-alive connection at once,
      // racing a request the proxy is writing to one of them: net.Server#close leaves them open.
      const closed = new Promise<void>((resolve) => {
        net.Server.prototype.close.call(app.server, () => resolve());
      });
      // By then the proxy has closed its idle connections (its keep-alive timeout is shorter) and
      // cannot open new ones: what is still idle is a direct client's, or one that never asked
      // anything (a browser's preconnect), which no keep-alive timeout ends.
      const sweep = setTimeout(() => app.server.closeIdleConnections(), KEEP_ALIVE_TIMEOUT_MS);
      await closed;
      clearTimeout(sweep);
    },
  };
}
