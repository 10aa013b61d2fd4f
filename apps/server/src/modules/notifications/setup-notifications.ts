import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { type QueueDeps, recordDelivery, recordDeliveryIn, recordFallback } from '../queue/index.js';
import { createNotifier } from './notifier.js';
import { createProviders } from './providers.js';
import { type VapidKeys, createPushProvider, loadVapidKeys } from './push.js';
import { type PassportIssuer, callMessages, partyMessenger, smsOnCall, smsOnJoin, smsOnRepeatJoin } from './waitlist-sms.js';

/**
 * The notifier with the configured providers: decorates `app.notifier`, adds the messages of a
 * join, a call, a seating, a no-show and getting close to the app's change hooks (each queued in
 * the change's transaction) and answers the messenger staff sends go through; the worker runs from
 * `ready` to `close`.
 */
export function setupNotifications(
  app: FastifyInstance,
  options: { now: () => number; issuePassport: PassportIssuer; inWriteBatch?: false; outboxClaimedEachRound?: true },
): Required<Pick<QueueDeps, 'messenger'>> {
  const { config } = app;
  const notifier = createNotifier({
    db: app.db,
    providers: createProviders(
      config,
      createPushProvider(app.db, () => vapid),
    ),
    now: options.now,
    log: app.log,
    reporter: app.reporter,
    enabled: config.MESSAGE_WORKER,
    intervalMs: config.MESSAGE_WORKER_INTERVAL_MS,
    maxAttempts: config.MESSAGE_MAX_ATTEMPTS,
    retentionMs: config.RETENTION_HOURS * 3_600_000,
    // The entry's card shows what became of its last message (docs/product.md §7).
    onDelivery: (messageIds, status) => recordDelivery(app.queueDeps, messageIds, status),
    ...(options.outboxClaimedEachRound ? { outboxClaimedEachRound: true as const } : {}),
    ...(options.inWriteBatch === false
      ? { inWriteBatch: false as const }
      : {
          onDeliveryIn: (trx: Kysely<Database>, messageIds: string[], status: 'sent') =>
            recordDeliveryIn(app.queueDeps, trx, messageIds, status),
        }),
    // A WhatsApp message that went again by SMS: the card and the thread show both (docs/product.md §10).
    onFallback: (whatsappId, smsId) => recordFallback(app.queueDeps, whatsappId, smsId),
    onOutcome: (channel, outcome, count) => app.metrics.delivered(channel, outcome, count),
  });
  app.decorate('notifier', notifier);
  // The VAPID keys before the worker starts: a push waiting in the queue needs them (docs/product.md §8).
  // A store that does not answer at start does not stop the server: the keys load on the next need.
  let vapid: VapidKeys | undefined;
  const ensureVapid = async (): Promise<VapidKeys | undefined> => {
    if (vapid) return vapid;
    try {
      vapid = await loadVapidKeys(app.db, config, options.now());
    } catch (error) {
      app.reporter.report(error, { job: 'vapid-keys' });
    }
    return vapid;
  };
  app.decorate('vapidPublicKey', async () => (await ensureVapid())?.publicKey);
  app.addHook('onReady', async () => void (await ensureVapid()));
  const hooks = app.changeHooks;
  const templates = config.WHATSAPP_TEMPLATES;
  hooks.on('join', smsOnJoin(notifier, config.publicBaseUrl, options.issuePassport, templates));
  hooks.on('repeatJoin', smsOnRepeatJoin(notifier, config.publicBaseUrl, templates));
  hooks.on('call', smsOnCall(notifier, config.publicBaseUrl, templates));
  const calls = callMessages(notifier, config.publicBaseUrl, templates);
  hooks.on('seat', calls.onSeated);
  hooks.on('noShow', calls.onNoShow);
  hooks.on('gettingClose', calls.onGettingClose);
  // After the answer went out, the transaction that queued a message has committed.
  app.addHook('onResponse', async () => notifier.kickIfQueued());
  app.addHook('onReady', async () => notifier.start());
  app.addHook('onClose', async () => notifier.stop());
  return { messenger: partyMessenger(notifier, options.now, config.publicBaseUrl) };
}
