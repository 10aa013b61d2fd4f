import type { Config } from '../../config.js';
import { createSmtpProvider } from './smtp-provider.js';
import { type MessageProvider } from './provider-types.js';
import { createTwilioProvider } from './twilio-provider.js';

export { type MessageProvider, ProviderError, redactContact } from './provider-types.js';

/**
 * The outbox: the message row itself is the delivery; GET /api/dev/outbox lists it. A delivered
 * row keeps no usable code or login link (docs/product.md §3), so the texts of the messages that carry
 * one stay here, in this process's memory only, for the demo's outbox list (the newest `limit`).
 */
export interface OutboxProvider extends MessageProvider {
  readonly name: 'outbox';
  /** Remembers the text of a queued message whose stored body is masked once delivered. */
  keep(messageId: string, body: string): void;
  /** The text this outbox delivered for a message, if it carried a secret and is still kept. */
  keptBody(messageId: string): string | undefined;
}

export function createOutboxProvider(limit = 500): OutboxProvider {
  const kept = new Map<string, string>();
  return {
    name: 'outbox',
    send: async (message) => ({ providerId: `outbox-${message.id}` }),
    keep(messageId, body) {
      kept.set(messageId, body);
      for (const oldest of kept.keys()) {
        if (kept.size <= limit) break;
        kept.delete(oldest);
      }
    },
    keptBody: (messageId) => kept.get(messageId),
  };
}

export const isOutbox = (provider: MessageProvider): provider is OutboxProvider => provider.name === 'outbox';

export type Providers = Record<'sms' | 'email' | 'push', MessageProvider>;

export function createProviders(config: Config, push: MessageProvider): Providers {
  const outbox = createOutboxProvider();
  return {
    push,
    sms: config.SMS_PROVIDER === 'twilio' ? createTwilioProvider(config) : outbox,
    email: config.EMAIL_PROVIDER === 'smtp' ? createSmtpProvider(config) : outbox,
  };
}
