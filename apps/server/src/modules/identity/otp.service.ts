import { ErrorCode, type Language, type OtpSendBody, type OtpSendResponse, codeMessage, messages } from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { newEntryId } from '../../lib/ids.js';
import { toE164 } from '../../lib/phone.js';
import { smsTextFor, venueNameIn } from '../notifications/message-texts.js';
import { canTextPhone, smsCountriesText } from '../venues/venue.js';
import { getVenue } from '../venues/venues.service.js';
import { CODE_MAX_TRIES, CODE_TTL_MS, type IdentityDeps, SEND_WINDOW_MS } from './identity-deps.js';
import { deleteExpiredCredentials } from './user-sessions.repository.js';
import { text } from './identity-texts.js';
import * as repo from './otp.repository.js';
import { clientKeyOf, hashCode, isCodeMatch, newCode } from './secrets.js';

/** What a stored message shows in place of a code once it is sent. */
const MASKED_CODE = '••••••';

/** The phone as E.164 or the email lower-cased; a clear 422 otherwise. */
export function normaliseTarget(channel: 'sms' | 'email', target: string, field = 'target'): string {
  if (channel === 'sms') {
    const phone = toE164(target);
    if (!phone) throw new AppError(ErrorCode.VALIDATION_FAILED, messages.phone, field);
    return phone;
  }
  const email = target.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
    throw new AppError(ErrorCode.VALIDATION_FAILED, messages.email, field);
  return email;
}

/** 429 with Retry-After when `times` (oldest first) already holds `limit` sends in the window. */
function assertUnderLimit(times: number[], limit: number, now: number, message: (min: number) => string): void {
  if (times.length < limit) return;
  // The send that must age out before another is allowed.
  const blocking = times[times.length - limit] ?? now;
  const seconds = Math.max(1, Math.ceil((blocking + SEND_WINDOW_MS - now) / 1000));
  throw new AppError(ErrorCode.RATE_LIMITED, message(Math.ceil(seconds / 60)), undefined, { 'retry-after': String(seconds) });
}

let lastCleanup = 0;

/** POST /otp/send: a fresh code for the target, queued for delivery in the same transaction. */
export async function sendCode(deps: IdentityDeps, body: OtpSendBody, clientAddress: string, lang: Language): Promise<OtpSendResponse> {
  const target = normaliseTarget(body.channel, body.target);
  const venue = await getVenue(deps.db.kysely, body.venueId);
  // Codes log diners in: only where the venue offers the login journey.
  if (!venue.loginJourney) throw new AppError(ErrorCode.FORBIDDEN, text(lang, 'noLoginJourney'), 'venueId');
  // Codes by SMS follow the venue's SMS countries like the join's link (docs/product.md §3: no SMS pumping).
  if (body.channel === 'sms' && !canTextPhone(venue, target)) {
    throw new AppError(
      ErrorCode.PHONE_COUNTRY_NOT_ALLOWED,
      `This venue sends codes by SMS only to phone numbers from ${smsCountriesText(venue)}.`,
      'target',
    );
  }
  const now = deps.now();
  const clientKey = clientKeyOf(await deps.addressSecret(), clientAddress);
  const since = now - SEND_WINDOW_MS;
  assertUnderLimit(await repo.sendTimesForTarget(deps.db.kysely, target, since), deps.config.OTP_SENDS_PER_TARGET_PER_10_MIN, now, (min) =>
    text(lang, 'sendsPerTarget', { min }),
  );
  assertUnderLimit(
    await repo.sendTimesForClient(deps.db.kysely, clientKey, since),
    deps.config.OTP_SENDS_PER_ADDRESS_PER_10_MIN,
    now,
    (min) => text(lang, 'sendsPerAddress', { min }),
  );

  const code = newCode();
  const codeHash = await hashCode(code);
  const id = newEntryId();
  // By SMS, in GSM-7 when the venue asks for it (docs/product.md §8, "SMS sem acentos"); email as written.
  const written = (text: string) => (body.channel === 'sms' ? smsTextFor(venue.settings, target, text) : text);
  const coded = codeMessage(lang, code, venueNameIn(venue, lang), CODE_TTL_MS / 60_000);
  const message = { ...coded, body: written(coded.body) };
  const safeBody = written(codeMessage(lang, MASKED_CODE, venueNameIn(venue, lang), CODE_TTL_MS / 60_000).body);
  await inTransaction(deps.db.kysely, async (trx) => {
    // Only the newest code counts (docs/product.md §3): the ones sent before stop working now.
    await repo.voidLiveCodes(trx, body.channel, target, now);
    await repo.insertCode(trx, {
      id,
      channel: body.channel,
      target,
      venue_id: venue.id,
      code_hash: codeHash,
      client_key: clientKey,
      created_at: now,
      expires_at: now + CODE_TTL_MS,
      tries: 0,
      used_at: null,
    });
    await deps.notifier.enqueue(trx, { channel: body.channel, to: target, ...message, safeBody, idempotencyKey: `otp:${id}` });
  });
  if (now - lastCleanup > SEND_WINDOW_MS) {
    lastCleanup = now;
    await deleteExpiredCredentials(deps.db.kysely, now, now - 24 * 3_600_000);
  }
  return { sent: true, channel: body.channel, expiresIn: CODE_TTL_MS / 1000 };
}

/**
 * Checks a code against the newest code sent to the target on the channel: a resend voids the
 * earlier ones (docs/product.md §3). The comparison first takes one of the code's 5 tries, so concurrent
 * guesses get no more. Answers the code's id, to be consumed in the caller's transaction. Nothing
 * here looks at accounts: the answer is the same whether the target has one or not.
 */
export async function checkCode(
  deps: IdentityDeps,
  channel: 'sms' | 'email',
  target: string,
  code: string,
  lang: Language,
): Promise<string> {
  const db = deps.db.kysely;
  const now = deps.now();
  const fail = (key: 'invalidCode' | 'expiredCode' | 'lockedCode' | 'noCode') =>
    new AppError(ErrorCode.VALIDATION_FAILED, text(lang, key), 'otp');
  const newest = await repo.findNewestUnusedCode(db, channel, target, now - 24 * 3_600_000);
  if (!newest) throw fail('noCode');
  if (newest.expires_at <= now) throw fail('expiredCode');
  if (!(await repo.reserveTry(db, newest.id, now, CODE_MAX_TRIES)))
    throw fail(newest.tries >= CODE_MAX_TRIES ? 'lockedCode' : 'invalidCode');
  if (await isCodeMatch(code, newest.code_hash)) return newest.id;
  // This was the last try the code had: say so now rather than at the next attempt.
  throw fail(newest.tries + 1 >= CODE_MAX_TRIES ? 'lockedCode' : 'invalidCode');
}

/** Uses the code inside the transaction that creates the session; refused if used meanwhile. */
export async function useCode(trx: Kysely<Database>, id: string, now: number, lang: Language): Promise<void> {
  if (!(await repo.consumeCode(trx, id, now))) throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'invalidCode'), 'otp');
}
