import type { MessageRow } from '../../db/types.js';

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
    /** The provider's own error code (Twilio's `code`), when it gave one: 63016, 63003, 21211 … */
    readonly code?: number,
  ) {
    super(message);
  }
}

/** Strips anything that looks like an email address or a phone number from an error text. */
export function redactContact(text: string): string {
  return text
    .replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[address]')
    .replace(/\+?\d[\d\s().-]{6,}\d/g, '[number]')
    .slice(0, 300);
}
