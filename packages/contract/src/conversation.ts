import * as z from 'zod/mini';
import { PlainText } from './plain-text.js';

/**
 * The conversation between a party and the venue (docs/product.md §7): the party's answers from its
 * page or by SMS, messages both ways, and the delivery of what the venue sent.
 */

/** At most this many characters in a message from staff to a party. */
export const STAFF_MESSAGE_MAX_LENGTH = 480;
/** "I need more time" by SMS (keyword 2) asks for this many minutes. */
export const SMS_MORE_TIME_MINUTES = 10;
/** The diner's page shows at most this many of the venue's latest messages. */
export const VENUE_MESSAGES_SHOWN = 10;

export const ReplyKind = z.enum(['onMyWay', 'needMoreTime', 'arrived']);
export type ReplyKind = z.infer<typeof ReplyKind>;

/** POST /api/waitlists/{waitlistId}/{venueId}/reply: `minutes` goes with `needMoreTime` only. */
export const ReplyBody = z
  .strictObject({
    reply: ReplyKind,
    minutes: z.optional(z.union([z.literal(5), z.literal(10), z.literal(15)])),
  })
  .check(
    z.refine((b) => (b.reply === 'needMoreTime') === (b.minutes !== undefined), {
      error: 'minutes (5, 10 or 15) goes with needMoreTime, and only with it.',
      path: ['minutes'],
    }),
  );
export type ReplyBody = z.infer<typeof ReplyBody>;

/** The party's latest answer. */
export const EntryReply = z.object({ kind: ReplyKind, minutes: z.nullable(z.number()), at: z.string() });
export type EntryReply = z.infer<typeof EntryReply>;

/** A message from the venue as the diner's page shows it. */
export const VenueMessage = z.object({ text: z.string(), at: z.string() });
export type VenueMessage = z.infer<typeof VenueMessage>;

/**
 * `received` and `read`: from the party. `queued`, `sent`, `delivered`, `failed`: from the venue,
 * as the provider reported it (`failed` includes Twilio's `undelivered`).
 */
export const MessageStatus = z.enum(['received', 'read', 'queued', 'sent', 'delivered', 'failed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** The channel a message to the party went by (docs/product.md §10). */
export const MessageChannel = z.enum(['sms', 'whatsapp']);
export type MessageChannel = z.infer<typeof MessageChannel>;

/**
 * How a message went (docs/product.md §10): `channel` is the one it went by; `fallbackFrom` names
 * the channel that failed first when it went again by SMS (the card and the thread show both).
 */
const Route = {
  channel: z.optional(MessageChannel),
  fallbackFrom: z.optional(z.literal('whatsapp')),
};

export const ThreadMessage = z.object({
  _id: z.string(),
  direction: z.enum(['in', 'out']),
  text: z.string(),
  at: z.string(),
  status: MessageStatus,
  ...Route,
});
export type ThreadMessage = z.infer<typeof ThreadMessage>;

/** GET /api/host/venues/{venueId}/entries/{entryId}/messages: the thread, oldest first. */
export const ThreadResponse = z.object({ messages: z.array(ThreadMessage) });
export type ThreadResponse = z.infer<typeof ThreadResponse>;

/** POST /api/host/venues/{venueId}/entries/{entryId}/messages */
export const StaffMessageBody = z.strictObject({ text: PlainText(STAFF_MESSAGE_MAX_LENGTH, { multiLine: true, min: 1 }) });
export type StaffMessageBody = z.infer<typeof StaffMessageBody>;

/** The delivery of the last message sent to a party (join, call or staff message), for its card. */
export const LastMessage = z.object({ _id: z.string(), status: MessageStatus, ...Route });
export type LastMessage = z.infer<typeof LastMessage>;

/** The answer to POST .../messages: the message as the thread now shows it. */
export const StaffMessageResponse = z.object({ message: ThreadMessage });
export type StaffMessageResponse = z.infer<typeof StaffMessageResponse>;

/** GET /api/push/key: the server's VAPID public key (base64url) for PushManager.subscribe (docs/product.md §8). */
export const PushKeyResponse = z.object({ publicKey: z.string() });
export type PushKeyResponse = z.infer<typeof PushKeyResponse>;

/** POST /api/waitlists/{waitlistId}/{venueId}/push: the browser's subscription, as its toJSON() gives it. */
export const PushSubscribeBody = z.strictObject({
  subscription: z.object({
    endpoint: z.url({ protocol: /^https?$/ }).check(z.maxLength(1000)),
    expirationTime: z.optional(z.nullable(z.number())),
    keys: z.strictObject({
      p256dh: z.string().check(z.regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/)),
      auth: z.string().check(z.regex(/^[A-Za-z0-9_-]{16,32}={0,2}$/)),
    }),
  }),
});
export type PushSubscribeBody = z.infer<typeof PushSubscribeBody>;
