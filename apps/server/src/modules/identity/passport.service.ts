import { ErrorCode, type Language, type PassportBody, type ProductUser } from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../../db/types.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { type IdentityDeps, PASSPORT_TTL_MS } from './identity-deps.js';
import * as repo from './product-users.repository.js';
import { findUserBySession } from './user-sessions.repository.js';
import { consumePassport, insertPassport } from './passports.repository.js';
import { text } from './identity-texts.js';
import { hashToken, newToken } from './secrets.js';
import { startSession, toProductUser } from './users.service.js';

/** Makes a single-use passport for a user; answers the token (only its hash is stored). */
export async function issuePassport(trx: Kysely<Database>, userId: string, entryId: string | null, now: number): Promise<string> {
  const token = newToken();
  await insertPassport(trx, {
    token_hash: hashToken(token),
    user_id: userId,
    entry_id: entryId,
    created_at: now,
    expires_at: now + PASSPORT_TTL_MS,
    used_at: null,
  });
  return token;
}

/**
 * For the SMS on join: a passport when the join carries the diner's live user session and the SMS
 * goes to that account's own verified phone, so the diner who opens the link on another device is
 * logged in there too. A join that names any other phone gets the plain link (docs/product.md §3).
 */
export function passportIssuerFor(now: () => number) {
  return async (trx: Kysely<Database>, token: string | undefined, entry: EntryRow): Promise<string | undefined> => {
    if (!token || !entry.phone) return undefined;
    const user = await findUserBySession(trx, hashToken(token), now());
    if (!user || user.phone_verified_at === null || user.phone !== entry.phone) return undefined;
    return issuePassport(trx, user.id, entry.id, now());
  };
}

/** POST /product-user/oauth2/passport: the passport is used once and becomes a session. */
export async function exchangePassport(
  deps: IdentityDeps,
  body: PassportBody,
  lang: Language,
): Promise<{ user: ProductUser; token: string }> {
  const now = deps.now();
  return inTransaction(deps.db.kysely, async (trx) => {
    const userId = await consumePassport(trx, hashToken(body.passport), now);
    const row = userId ? await repo.findUserById(trx, userId) : undefined;
    if (!row) throw new AppError(ErrorCode.UNAUTHENTICATED, text(lang, 'passportInvalid'), 'passport');
    return { user: toProductUser(row), token: await startSession(trx, row.id, now) };
  });
}
