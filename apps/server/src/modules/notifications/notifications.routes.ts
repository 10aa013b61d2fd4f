import { OutboxResponse } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { listOutbox } from './messages.repository.js';
import { isOutbox } from './providers.js';

/**
 * Whether GET /api/dev/outbox exists: only in the demo (docs/product.md §9), whatever NODE_ENV says
 * (docs/security.md, Safe defaults), with an outbox provider in use.
 */
export function isOutboxRouteOn(app: FastifyInstance): boolean {
  const { config } = app;
  return config.DEMO && (config.SMS_PROVIDER === 'outbox' || config.EMAIL_PROVIDER === 'outbox');
}

export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  if (!isOutboxRouteOn(app)) return;
  app.get(
    '/dev/outbox',
    {
      schema: {
        tags: ['dev'],
        summary: 'Messages the outbox provider holds (delivered, or committed and about to be), newest first (the demo only)',
        response: { 200: OutboxResponse },
      },
    },
    async (_request, reply) => {
      const channels = (['sms', 'email', 'push'] as const).filter((channel) => isOutbox(app.notifier.providers[channel]));
      const rows = await listOutbox(app.db.kysely, channels, 200);
      // The demo's codes: never cached anywhere.
      reply.header('cache-control', 'no-store');
      // A stored row keeps no usable code or login link; this process's outbox kept the text it delivered.
      const keptBody = (id: string, channel: 'sms' | 'email' | 'push') => {
        const provider = app.notifier.providers[channel];
        return isOutbox(provider) ? provider.keptBody(id) : undefined;
      };
      return rows.map((row) => ({
        to: row.recipient,
        channel: row.channel,
        body: keptBody(row.id, row.channel) ?? row.body,
        createdAt: new Date(row.created_at).toISOString(),
      }));
    },
  );
}
