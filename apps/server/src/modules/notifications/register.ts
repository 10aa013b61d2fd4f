import type { FastifyInstance } from 'fastify';
import { notificationsRoutes } from './notifications.routes.js';
import { pushRoutes } from './push.routes.js';
import { smsWebhookRoutes } from './sms-webhooks.routes.js';

/**
 * The notifications module's routes under /api: the demo outbox, the SMS webhooks, browser push.
 * The notifier itself and its change hooks are set up earlier (setup-notifications.ts): the queue needs them.
 */
export async function registerNotifications(app: FastifyInstance): Promise<void> {
  await app.register(notificationsRoutes, { prefix: '/api' });
  await app.register(smsWebhookRoutes, { prefix: '/api' });
  await app.register(pushRoutes, { prefix: '/api' });
}
