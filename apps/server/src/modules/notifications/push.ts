import { randomBytes } from 'node:crypto';
import webPush from 'web-push';
import type { Config } from '../../config.js';
import { keepAppKey } from '../../db/app-keys.js';
import type { Db } from '../../db/connect.js';
import { newOrderedId } from '../../lib/ids.js';
import * as repo from './push-subscriptions.repository.js';
import { type MessageProvider, ProviderError } from './provider-types.js';

/**
 * Browser push (docs/product.md §8; Web Push, RFC 8030, with the payload encrypted per RFC 8291 and
 * the server identified by VAPID, RFC 8292) through the `web-push` library. A push message in the
 * queue names an entry; the provider sends it to every subscription of that entry.
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The VAPID keys: from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, or made once and kept in the store so
 * every instance signs with the same pair (the first instance to start writes it).
 */
export async function loadVapidKeys(db: Db, config: Config, now: number): Promise<VapidKeys> {
  const subject =
    config.VAPID_SUBJECT ?? `${config.publicBaseUrl.startsWith('https://') ? config.publicBaseUrl : 'mailto:ops@vez.example'}`;
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
  }
  const made = webPush.generateVAPIDKeys();
  const kept = await keepAppKey(db, 'vapid', JSON.stringify(made), now);
  const keys = JSON.parse(kept) as { publicKey: string; privateKey: string };
  return { ...keys, subject };
}

/** What a notification carries to the service worker: a title, a text and the page it opens. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
}

/** Well under the worker's lease, like the SMS provider. */
const TIMEOUT_MS = 15_000;

export function createPushProvider(db: Db, keys: () => VapidKeys | undefined): MessageProvider {
  return {
    name: 'web-push',
    async send(message) {
      const vapid = keys();
      if (!vapid) throw new ProviderError('push keys not loaded yet', false);
      const subscriptions = await repo.listSubscriptionsOf(db.kysely, message.recipient);
      let delivered = 0;
      let retry = false;
      let redirected = false;
      for (const sub of subscriptions) {
        try {
          // web-push encrypts (RFC 8291) and signs (VAPID); the request goes out with fetch, which
          // also reaches a plain-http push service in tests (web-push's own transport is https only).
          const request = webPush.generateRequestDetails(
            { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
            message.body,
            {
              vapidDetails: vapid,
              TTL: 15 * 60,
              urgency: 'high',
            },
          );
          const response = await fetch(request.endpoint, {
            method: request.method,
            headers: request.headers as Record<string, string>,
            body: request.body ? new Uint8Array(request.body) : null,
            signal: AbortSignal.timeout(TIMEOUT_MS),
            // A push service never redirects; following one would send the request, signed, to an
            // address the subscription's owner chose instead of PUSH_HOSTS (docs/security.md).
            redirect: 'manual',
          });
          // Gone or unknown at the push service: the browser dropped it; so do we.
          if (response.status === 404 || response.status === 410) {
            await repo.deleteSubscription(db.kysely, sub.id);
          } else if (response.status >= 300 && response.status < 400) redirected = true;
          else if (response.ok) delivered += 1;
          else retry = true;
        } catch {
          retry = true;
        }
      }
      if (delivered === 0 && retry) throw new ProviderError('push service unreachable or refused', false);
      // A redirect does not go away by asking again: failed, not retried.
      if (delivered === 0 && redirected) throw new ProviderError('push service answered a redirect', true);
      return { providerId: `push-${delivered}-${randomBytes(4).toString('hex')}` };
    },
  };
}

/** A subscription as the browser's PushManager gives it (its JSON). */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export async function saveSubscription(db: Db, entryId: string, subscription: BrowserSubscription, now: number): Promise<void> {
  await repo.replaceSubscription(db.kysely, {
    id: newOrderedId(now),
    entry_id: entryId,
    endpoint: subscription.endpoint,
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
    created_at: now,
  });
}

export async function removeSubscriptions(db: Db, entryId: string): Promise<number> {
  return repo.removeSubscriptionsOf(db.kysely, entryId);
}

export async function hasSubscriptions(db: Db['kysely'], entryId: string): Promise<boolean> {
  return repo.hasSubscriptions(db, entryId);
}
