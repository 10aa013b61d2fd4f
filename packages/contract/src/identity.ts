import * as z from 'zod/mini';
import { CODE_LENGTH, PRODUCT_NAME } from './constants.js';
import { EntryId, VenueId } from './ids.js';
import { isCalendarDate, plainText } from './plain-text.js';
import { Phone } from './phone-schema.js';
import { Email } from './waitlist.js';

/**
 * The user-manager API (docs/product.md §17): one-time codes, product users, passports, user events.
 * Every failure answers the ApiErrorBody of errors.ts; its `message` is what the client shows.
 */
export const ProductName = z.literal(PRODUCT_NAME);
export const OtpChannel = z.enum(['sms', 'email']);
export type OtpChannel = z.infer<typeof OtpChannel>;
/** Language of the texts the server writes (code message, error messages); pt by default. */
export const MessageLang = z.optional(z.enum(['pt', 'en']));

export const OTP_PATTERN = new RegExp(`^\\d{${CODE_LENGTH}}$`);
export const OtpCode = z.string().check(z.regex(OTP_PATTERN, { error: `The code has ${CODE_LENGTH} digits.` }));

const Name = (error: string) => z.string().check(plainText(), z.trim(), z.minLength(1, { error }), z.maxLength(60, { error }));
const OptionalEmail = z.optional(z.nullable(z.union([z.literal(''), Email])));

/** POST /otp/send: sends a 6-digit code to the phone (sms) or the email (email). */
export const OtpSendBody = z.strictObject({
  productName: ProductName,
  channel: OtpChannel,
  /** The phone (any readable form; stored as E.164) or the email address. */
  target: z.string().check(plainText(), z.minLength(1), z.maxLength(254)),
  venueId: VenueId,
  type: z.literal('validate'),
  lang: MessageLang,
});
export type OtpSendBody = z.infer<typeof OtpSendBody>;

export const OtpSendResponse = z.object({
  sent: z.literal(true),
  channel: OtpChannel,
  /** Seconds the code stays valid (600). */
  expiresIn: z.number(),
});
export type OtpSendResponse = z.infer<typeof OtpSendResponse>;

/**
 * POST /product-user/otp (and POST /product-user, the same): creates the user, or logs in the
 * user who already owns the verified phone or email, with the code sent to
 * `channel` (sms: the code went to `phone`; email: it went to `email`). Starts a session (cookie).
 */
export const CreateUserWithOtpBody = z.strictObject({
  firstName: Name('Por favor, informe seu nome completo.'),
  lastName: Name('Por favor, informe seu nome completo.'),
  /** Digits with a leading plus (E.164), as docs/product.md §13 says; other readable forms are accepted too. */
  phone: Phone,
  email: OptionalEmail,
  productName: ProductName,
  otp: OtpCode,
  channel: z._default(OtpChannel, 'sms'),
  venueId: z.optional(VenueId),
  lang: MessageLang,
});
export type CreateUserWithOtpBody = z.infer<typeof CreateUserWithOtpBody>;

/** A real calendar date from 1900 on (`0000-00-00` is refused here, not by the database). */
export const Birthday = z
  .string()
  .check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Birthday must be YYYY-MM-DD.' }),
    z.refine(isCalendarDate, { error: 'Birthday must be a real date (YYYY-MM-DD).' }),
  );

/** PATCH /product-user: the fields to change. The phone is the verified identity and cannot change here. */
export const UpdateUserBody = z.strictObject({
  firstName: z.optional(Name('Por favor, informe seu nome completo.')),
  lastName: z.optional(Name('Por favor, informe seu nome completo.')),
  email: OptionalEmail,
  birthday: z.optional(z.nullable(Birthday)),
  gender: z.optional(z.nullable(z.string().check(plainText(), z.trim(), z.maxLength(30)))),
  /** Accepted only when it is the current phone (clients often send the whole user back). */
  phone: z.optional(z.string().check(plainText(), z.maxLength(40))),
  lang: MessageLang,
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** GET /product-user and every answer that returns the user. */
export const ProductUser = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  email: z.nullable(z.string()),
  birthday: z.nullable(z.string()),
  gender: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductUser = z.infer<typeof ProductUser>;

/** POST /product-user/oauth2/passport: exchanges a single-use passport (from an SMS link) for a session. */
export const PassportBody = z.strictObject({
  passport: z.string().check(z.minLength(20), z.maxLength(100)),
  productName: ProductName,
  lang: MessageLang,
});
export type PassportBody = z.infer<typeof PassportBody>;

export const LogoutResponse = z.object({ loggedOut: z.literal(true) });

export const UserEventType = z.enum(['waitlist-login', 'waitlist-enter']);
export type UserEventType = z.infer<typeof UserEventType>;

/** POST /product-user/event. `waitlist-enter` carries the create payload as `data` and the entry's id. */
export const UserEventBody = z.strictObject({
  venueId: VenueId,
  eventType: UserEventType,
  eventBody: z._default(
    z.strictObject({
      data: z.optional(z.unknown()),
      waitlistId: z.optional(EntryId),
    }),
    {},
  ),
});
export type UserEventBody = z.infer<typeof UserEventBody>;

export const UserEventResponse = z.object({ _id: z.string(), eventType: UserEventType, createdAt: z.string() });
export type UserEventResponse = z.infer<typeof UserEventResponse>;

/** GET /dev/outbox (outbox provider, not in production): the stored messages, newest first. */
export const OutboxMessage = z.object({
  to: z.string(),
  channel: OtpChannel,
  body: z.string(),
  createdAt: z.string(),
});
export const OutboxResponse = z.array(OutboxMessage);
export type OutboxMessage = z.infer<typeof OutboxMessage>;
