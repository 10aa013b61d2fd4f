import { type CreateUserWithOtpBody, ErrorCode, type Language, type ProductUser, type UpdateUserBody } from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database, ProductUserRow, ProductUserTable } from '../../db/types.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { newEntryId } from '../../lib/ids.js';
import { type IdentityDeps, SESSION_TTL_MS } from './identity-deps.js';
import * as repo from './product-users.repository.js';
import { deleteSession, findUserBySession, insertSession } from './user-sessions.repository.js';
import { text } from './identity-texts.js';
import { checkCode, normaliseTarget, useCode } from './otp.service.js';
import { hashToken, newToken } from './secrets.js';

export function toProductUser(row: ProductUserRow): ProductUser {
  return {
    _id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    // Empty once its verified owner claimed it from this account (docs/product.md §3).
    phone: row.phone ?? '',
    email: row.email,
    birthday: row.birthday,
    gender: row.gender,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Starts a session for the user; answers the cookie's token (only its hash is stored). */
export async function startSession(trx: Kysely<Database>, userId: string, now: number): Promise<string> {
  const token = newToken();
  await insertSession(trx, { token_hash: hashToken(token), user_id: userId, created_at: now, expires_at: now + SESSION_TTL_MS });
  return token;
}

const emailOf = (value: string | null | undefined): string | null => (value ? value.trim().toLowerCase() : null);

/** Two transactions racing to verify one new contact meet its unique index (PostgreSQL 23505, SQLite). */
function isUniqueViolation(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: string };
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Creates the user, or logs in the one whose phone (sms) or email (email) a code has verified
 * (docs/product.md §3). The code proves only the contact it went to: the other contact of the body is
 * contact data, stored unverified, and never matches, merges or refuses an account, so the answer
 * does not tell whether it belongs to someone. The verified contact is claimed: an unverified copy
 * of it on another account is detached. Code, user and session are written in one transaction.
 */
export async function createUserWithCode(
  deps: IdentityDeps,
  body: CreateUserWithOtpBody,
  lang: Language,
): Promise<{ user: ProductUser; token: string; created: boolean }> {
  const phone = normaliseTarget('sms', body.phone, 'phone');
  const email = body.email ? normaliseTarget('email', body.email, 'email') : null;
  if (body.channel === 'email' && !email) throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'noCode'), 'email');
  const verified: repo.Contact = body.channel === 'sms' ? 'phone' : 'email';
  const target = verified === 'phone' ? phone : (email as string);
  const codeId = await checkCode(deps, body.channel, target, body.otp, lang);
  const now = deps.now();

  const attempt = () =>
    inTransaction(deps.db.kysely, async (trx) => {
      await useCode(trx, codeId, now, lang);
      const owner = await repo.findUserByVerified(trx, verified, target);
      await repo.detachUnverified(trx, verified, target, now);
      const fields: Partial<ProductUserTable> = { first_name: body.firstName, last_name: body.lastName, updated_at: now };
      // A contact typed again keeps its state; a new one is contact data until a code verifies it.
      if (verified === 'phone') {
        fields.phone = phone;
        fields.phone_verified_at = owner?.phone_verified_at ?? now;
        if (email && email !== owner?.email) {
          fields.email = email;
          fields.email_verified_at = null;
        }
      } else {
        fields.email = email;
        fields.email_verified_at = owner?.email_verified_at ?? now;
        if (phone !== owner?.phone) {
          fields.phone = phone;
          fields.phone_verified_at = null;
        }
      }
      const id = owner?.id ?? newEntryId();
      if (owner) await repo.updateUser(trx, id, fields);
      else {
        await repo.insertUser(trx, {
          id,
          first_name: body.firstName,
          last_name: body.lastName,
          phone: null,
          phone_verified_at: null,
          email: null,
          email_verified_at: null,
          birthday: null,
          gender: null,
          created_at: now,
          updated_at: now,
          ...fields,
        });
      }
      const token = await startSession(trx, id, now);
      const row = await repo.findUserById(trx, id);
      if (!row) throw new Error('user vanished inside its own transaction');
      return { user: toProductUser(row), token, created: !owner };
    });
  // A concurrent sign-up verified the same new contact first: this one then logs into that account.
  return attempt().catch((error: unknown) => {
    if (isUniqueViolation(error)) return attempt();
    throw error;
  });
}

/** The user of a session cookie's token, or undefined. */
export async function findSessionUser(deps: IdentityDeps, token: string | undefined): Promise<ProductUserRow | undefined> {
  if (!token) return undefined;
  return findUserBySession(deps.db.kysely, hashToken(token), deps.now());
}

export async function requireSessionUser(deps: IdentityDeps, token: string | undefined, lang: Language): Promise<ProductUserRow> {
  const user = await findSessionUser(deps, token);
  if (!user) throw new AppError(ErrorCode.UNAUTHENTICATED, text(lang, 'notLoggedIn'));
  return user;
}

/** PATCH /product-user: names, email, birthday, gender. The phone changes only through a new code. */
export async function updateProfile(deps: IdentityDeps, user: ProductUserRow, body: UpdateUserBody, lang: Language): Promise<ProductUser> {
  if (body.phone !== undefined && normaliseTarget('sms', body.phone, 'phone') !== user.phone) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'phoneChange'), 'phone');
  }
  const patch: Parameters<typeof repo.updateUser>[2] = { updated_at: deps.now() };
  if (body.firstName !== undefined) patch.first_name = body.firstName;
  if (body.lastName !== undefined) patch.last_name = body.lastName;
  if (body.birthday !== undefined) patch.birthday = body.birthday;
  if (body.gender !== undefined) patch.gender = body.gender || null;
  if (body.email !== undefined) {
    // Contact data only until a code verifies it (docs/product.md §3): it neither matches nor refuses an
    // account, so an address someone else holds is not given away here.
    const email = emailOf(body.email);
    if (email !== user.email) {
      patch.email = email;
      patch.email_verified_at = null;
    }
  }
  await repo.updateUser(deps.db.kysely, user.id, patch);
  const row = await repo.findUserById(deps.db.kysely, user.id);
  return toProductUser(row ?? user);
}

export async function endSession(deps: IdentityDeps, token: string | undefined): Promise<void> {
  if (token) await deleteSession(deps.db.kysely, hashToken(token));
}
