import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connect.js';

/**
 * No answer leaves before every commit made before it is on disk (`Db.durable`, db/wal-sync.ts;
 * docs/decisions/059-commits-synced-off-the-event-loop.md): a write's own answer, and a read's, which
 * may show another request's commit whose sync is still running. Nothing to wait for, nothing added:
 * callback style, no promise per request. A failed sync fails the answer (an error, never the data).
 */
export function answersAfterCommitsAreDurable(app: FastifyInstance, db: Db): void {
  const { durable } = db;
  if (!durable) return;
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const synced = durable();
    if (!synced) return done(null, payload);
    synced.then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
