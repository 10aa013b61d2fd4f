import type { FastifyInstance } from 'fastify';

/**
 * Answers of this plugin's routes carry personal data (a diner's place, names and phones in the
 * host console): no browser or proxy cache keeps them (docs/security.md), errors included. A route
 * that chose its own caching (the printable poster) keeps it. Callback style: no promise per request
 * on the position read, the product's hottest route.
 */
export function answerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
