import { ErrorCode } from '@vez/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { SESSION_TTL_MS } from './identity-deps.js';
import { langOfRequest, text } from './identity-texts.js';

export const USER_COOKIE = 'vez_user';

function cookieOptions(config: Config) {
  return {
    path: '/api',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.publicBaseUrl.startsWith('https:'),
  };
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(USER_COOKIE, token, { ...cookieOptions(config), maxAge: SESSION_TTL_MS / 1000 });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(USER_COOKIE, cookieOptions(config));
}

export const sessionTokenOf = (request: FastifyRequest): string | undefined => request.cookies?.[USER_COOKIE] || undefined;

/**
 * Cookie-authenticated writes refuse cross-site requests (CSRF). Browsers say where a request
 * comes from in Sec-Fetch-Site and Origin; a request with neither is not a browser's cross-site
 * form or fetch (curl, a server), and carries no victim's cookie.
 */
export function assertSameSite(request: FastifyRequest, config: Config): void {
  const origin = request.headers.origin;
  const allowed = [new URL(config.publicBaseUrl).origin, ...(config.CORS_ORIGINS ?? [])];
  if (origin && allowed.includes(origin)) return;
  const site = request.headers['sec-fetch-site'];
  if (site === 'same-origin' || site === 'none') return;
  if (site === undefined && origin === undefined) return;
  throw new AppError(ErrorCode.FORBIDDEN, text(langOfRequest(request), 'crossSite'));
}
