import type { Config } from '../../config.js';
import { type MessageProvider, ProviderError } from './provider-types.js';

/** Well under the worker's lease, so a slow answer cannot let a second worker send the same row. */
const TIMEOUT_MS = 15_000;

/**
 * SMS and WhatsApp through Twilio's Messages API: POST {base}/2010-04-01/Accounts/{sid}/Messages.json,
 * form-encoded To, From, Body (or ContentSid and ContentVariables for a template), HTTP basic auth with the account SID and auth token. Answers 201
 * with the message `sid`. 429 and 5xx are retried; other 4xx (bad number, bad credentials) are not.
 */
export function createTwilioProvider(config: Config): MessageProvider {
  const sid = config.SMS_ACCOUNT_SID ?? '';
  const auth = Buffer.from(`${sid}:${config.SMS_AUTH_TOKEN ?? ''}`).toString('base64');
  const endpoint = `${config.SMS_API_URL.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`;
  const statusCallback = `${config.publicBaseUrl}/api/sms/status`;
  // WhatsApp goes through the same Messages API with `whatsapp:` addresses on both ends (docs/product.md §8).
  const whatsappFrom = config.SMS_WHATSAPP_FROM ? `whatsapp:${config.SMS_WHATSAPP_FROM.replace(/^whatsapp:/i, '')}` : '';
  const fromFor = (to: string) => (to.startsWith('whatsapp:') ? whatsappFrom : (config.SMS_FROM ?? ''));
  return {
    name: 'twilio',
    async send(message) {
      if (message.recipient.startsWith('whatsapp:') && !whatsappFrom) throw new ProviderError('SMS_WHATSAPP_FROM is not set', true);
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
          // Delivery reports come back to /api/sms/status (docs/product.md §7).
          body: new URLSearchParams({
            To: message.recipient,
            From: fromFor(message.recipient),
            // A WhatsApp message the venue starts goes as its approved template, never as Body (docs/product.md §10).
            ...(message.content_sid
              ? { ContentSid: message.content_sid, ContentVariables: message.content_variables ?? '{}' }
              : { Body: message.body }),
            StatusCallback: statusCallback,
          }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new ProviderError(`twilio unreachable: ${(error as Error).name}`, false);
      }
      const payload = (await response.json().catch(() => ({}))) as { sid?: unknown; code?: unknown };
      if (response.ok && typeof payload.sid === 'string') return { providerId: payload.sid };
      // Twilio's own `message` may quote the number: keep only the status and Twilio's error code.
      const code = typeof payload.code === 'number' ? payload.code : undefined;
      const retryable = response.status === 429 || response.status >= 500 || response.ok;
      throw new ProviderError(`twilio answered ${response.status}${code === undefined ? '' : ` code ${code}`}`, !retryable, code);
    },
  };
}
