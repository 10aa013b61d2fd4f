import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.js';
import { SESSION_COOKIES } from '../../plugins/sessions.js';
import { SESSION_TTL_MS } from './identity-deps.js';

const USER_COOKIE = SESSION_COOKIES.diner;

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
