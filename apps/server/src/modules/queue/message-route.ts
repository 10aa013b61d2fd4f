import type { LastMessage } from '@vez/contract';

/**
 * How a message went, as the card and the thread show it (docs/product.md §10): the channel it went
 * by and, for an SMS that replaced a failed WhatsApp message, that WhatsApp failed first.
 */
export function routeOf(channel: string | null, fallbackFrom: string | null): Pick<LastMessage, 'channel' | 'fallbackFrom'> {
  return {
    ...(channel === 'sms' || channel === 'whatsapp' ? { channel } : {}),
    ...(fallbackFrom === 'whatsapp' ? { fallbackFrom } : {}),
  };
}
