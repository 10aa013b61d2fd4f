import type { Config } from '../../config.js';
import type { MessageRow } from '../../db/types.js';
import { createSmtpProvider } from './smtp-provider.js';
import { createTwilioProvider } from './twilio-provider.js';

/** Something that delivers one message; answers the provider's id for it. */
export interface MessageProvider {
  readonly name: string;
  send(message: MessageRow): Promise<{ providerId: string }>;
  close?(): Promise<void>;
}

/**
 * A failed delivery. `permanent` failures (a rejected number, bad credentials) are not retried.
 * The message must never contain the phone, the address or the text (it is logged and stored).
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/**
 * The outbox: the message row itself is the delivery; GET /api/dev/outbox lists it. A delivered
 * row keeps no usable code or login link (decisions §3), so the texts of the messages that carry
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

export type Providers = Record<'sms' | 'email', MessageProvider>;

export function createProviders(config: Config): Providers {
  const outbox = createOutboxProvider();
  return {
    sms: config.SMS_PROVIDER === 'twilio' ? createTwilioProvider(config) : outbox,
    email: config.EMAIL_PROVIDER === 'smtp' ? createSmtpProvider(config) : outbox,
  };
}

/** Strips anything that looks like an email address or a phone number from an error text. */
export function redactContact(text: string): string {
  return text
    .replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[address]')
    .replace(/\+?\d[\d\s().-]{6,}\d/g, '[number]')
    .slice(0, 300);
}
