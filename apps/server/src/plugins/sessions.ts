import { HOST_SESSION_COOKIE } from '@vez/contract';
import type { FastifyRequest } from 'fastify';

/**
 * The one way a route reads a session: staff (the host console) and diners (the user-manager
 * login) each have a cookie holding an opaque token; only its hash is stored. The modules turn a
 * token into who it is (staff/staff-auth.ts, identity/users.service.ts).
 */
export const SESSION_COOKIES = { staff: HOST_SESSION_COOKIE, diner: 'vez_user' } as const;

export type SessionKind = keyof typeof SESSION_COOKIES;

/** Tokens are 43 characters (32 random bytes, base64url); anything much longer is not ours. */
const MAX_TOKEN_LENGTH = 100;

/** The request's session token of that kind, or undefined (no cookie, empty or oversized). */
export function readSessionToken(request: FastifyRequest, kind: SessionKind): string | undefined {
  const token = request.cookies?.[SESSION_COOKIES[kind]];
  return token && token.length <= MAX_TOKEN_LENGTH ? token : undefined;
}
