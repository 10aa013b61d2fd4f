import {
  CreateUserWithOtpBody,
  ErrorCode,
  type Language,
  type ProductUser,
  UpdateUserBody,
} from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database, ProductUserRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { newEntryId } from '../../lib/ids.js';
import { parseInput } from '../../lib/validate.js';
import { type IdentityDeps, SESSION_TTL_MS } from './identity-deps.js';
import * as repo from './identity.repository.js';
import { text } from './identity-texts.js';
import { checkCode, normaliseTarget, useCode } from './otp.service.js';
import { hashToken, newToken } from './secrets.js';

export function toProductUser(row: ProductUserRow): ProductUser {
  return {
    _id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
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
  await repo.insertSession(trx, { token_hash: hashToken(token), user_id: userId, created_at: now, expires_at: now + SESSION_TTL_MS });
  return token;
}

const emailOf = (value: string | null | undefined): string | null => (value ? value.trim().toLowerCase() : null);

/**
 * Two requests racing for the same phone or email: the unique index refuses the second (PostgreSQL
 * 23505, SQLite SQLITE_CONSTRAINT_UNIQUE); it answers like the checks above, not a 500.
 */
function asTakenError(error: unknown, lang: Language): unknown {
  const { code, message } = error as { code?: string; message?: string };
  if (code !== '23505' && code !== 'SQLITE_CONSTRAINT_UNIQUE') return error;
  const field = /email/.test(message ?? '') ? 'email' : 'phone';
  return new AppError(ErrorCode.VALIDATION_FAILED, text(lang, field === 'email' ? 'emailTaken' : 'phoneTaken'), field);
}

/**
 * Creates the user, or logs in the one who owns the verified phone (sms) or email (email), with a
 * code sent to it. The code is used, the user written and the session started in one transaction.
 */
export async function createUserWithCode(
  deps: IdentityDeps,
  input: unknown,
  lang: Language,
): Promise<{ user: ProductUser; token: string; created: boolean }> {
  const body = parseInput(CreateUserWithOtpBody, input);
  const phone = normaliseTarget('sms', body.phone, 'phone');
  const email = body.email ? normaliseTarget('email', body.email, 'email') : null;
  if (body.channel === 'email' && !email) throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'noCode'), 'email');
  const target = body.channel === 'sms' ? phone : (email as string);
  const codeId = await checkCode(deps, body.channel, target, body.otp, lang);
  const now = deps.now();

  const transaction = deps.db.kysely.transaction().execute(async (trx) => {
    await useCode(trx, codeId, now, lang);
    const byPhone = await repo.findUserByPhone(trx, phone);
    const byEmail = email ? await repo.findUserByEmail(trx, email) : undefined;
    // The verified contact decides whose account this is; the other one must not belong to someone else.
    const owner = body.channel === 'sms' ? byPhone : byEmail;
    if (body.channel === 'email' && byPhone && byPhone.id !== owner?.id) throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'phoneTaken'), 'phone');
    if (byEmail && owner && byEmail.id !== owner.id) throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'emailTaken'), 'email');
    if (byEmail && !owner) throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'emailTaken'), 'email');
    const fields = { first_name: body.firstName, last_name: body.lastName, phone, updated_at: now, ...(email ? { email } : {}) };
    let id: string;
    if (owner) {
      id = owner.id;
      await repo.updateUser(trx, id, fields);
    } else {
      id = newEntryId();
      await repo.insertUser(trx, { id, email: null, birthday: null, gender: null, created_at: now, ...fields });
    }
    const token = await startSession(trx, id, now);
    const row = await repo.findUserById(trx, id);
    if (!row) throw new Error('user vanished inside its own transaction');
    return { user: toProductUser(row), token, created: !owner };
  });
  return transaction.catch((error: unknown) => {
    throw asTakenError(error, lang);
  });
}

/** The user of a session cookie's token, or undefined. */
export async function findSessionUser(deps: IdentityDeps, token: string | undefined): Promise<ProductUserRow | undefined> {
  if (!token) return undefined;
  return repo.findUserBySession(deps.db.kysely, hashToken(token), deps.now());
}

export async function requireSessionUser(deps: IdentityDeps, token: string | undefined, lang: Language): Promise<ProductUserRow> {
  const user = await findSessionUser(deps, token);
  if (!user) throw new AppError(ErrorCode.UNAUTHENTICATED, text(lang, 'notLoggedIn'));
  return user;
}

/** PATCH /product-user: names, email, birthday, gender. The phone changes only through a new code. */
export async function updateProfile(deps: IdentityDeps, user: ProductUserRow, input: unknown, lang: Language): Promise<ProductUser> {
  const body = parseInput(UpdateUserBody, input);
  if (body.phone !== undefined && normaliseTarget('sms', body.phone, 'phone') !== user.phone) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'phoneChange'), 'phone');
  }
  const patch: Parameters<typeof repo.updateUser>[2] = { updated_at: deps.now() };
  if (body.firstName !== undefined) patch.first_name = body.firstName;
  if (body.lastName !== undefined) patch.last_name = body.lastName;
  if (body.birthday !== undefined) patch.birthday = body.birthday;
  if (body.gender !== undefined) patch.gender = body.gender || null;
  if (body.email !== undefined) {
    const email = emailOf(body.email);
    const holder = email ? await repo.findUserByEmail(deps.db.kysely, email) : undefined;
    if (holder && holder.id !== user.id) throw new AppError(ErrorCode.VALIDATION_FAILED, text(lang, 'emailTaken'), 'email');
    patch.email = email;
  }
  await repo.updateUser(deps.db.kysely, user.id, patch).catch((error: unknown) => {
    throw asTakenError(error, lang);
  });
  const row = await repo.findUserById(deps.db.kysely, user.id);
  return toProductUser(row ?? user);
}

export async function endSession(deps: IdentityDeps, token: string | undefined): Promise<void> {
  if (token) await repo.deleteSession(deps.db.kysely, hashToken(token));
}
