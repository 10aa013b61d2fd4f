import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's webhook signature (https://www.twilio.com/docs/usage/webhooks/webhooks-security): the
 * full URL Twilio requested, then each POST parameter's name and value, names sorted, all
 * concatenated; HMAC-SHA1 with the account's auth token; base64. The tests sign with the `twilio`
 * package's own helper, so this and Twilio's reading are checked against each other.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, unknown>): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    // A repeated parameter: each of its values, in order.
    for (const one of Array.isArray(value) ? value : [value]) data += name + String(one ?? '');
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

export function isValidTwilioSignature(authToken: string, signature: unknown, url: string, params: Record<string, unknown>): boolean {
  if (typeof signature !== 'string' || signature === '') return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
