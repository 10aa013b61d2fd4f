import {
  CreateUserWithOtpBody,
  LogoutResponse,
  OtpSendBody,
  OtpSendResponse,
  PassportBody,
  ProductUser,
  UpdateUserBody,
  UserEventBody,
  UserEventResponse,
} from '@vez/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appSecret } from '../../db/app-keys.js';
import type { ProductUserRow } from '../../db/types.js';
import { refuseCrossSiteWrites } from '../../plugins/same-origin.js';
import { readSessionToken } from '../../plugins/sessions.js';
import { recordEvent } from './events.service.js';
import type { IdentityDeps } from './identity-deps.js';
import { langOfRequest, text } from './identity-texts.js';
import { sendCode } from './otp.service.js';
import { exchangePassport } from './passport.service.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';
import { createUserWithCode, endSession, requireSessionUser, toProductUser, updateProfile } from './users.service.js';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { $ref: 'ApiError#' }]));
const doc = (summary: string, body: unknown, response: Record<number, unknown>) => ({
  tags: ['user-manager'],
  summary,
  ...(body ? { body } : {}),
  response,
});

/** The user-manager API of docs/product.md §17: codes, product users, passports, events. */
export async function identityRoutes(app: FastifyInstance): Promise<void> {
  const deps: IdentityDeps = {
    db: app.db,
    now: app.now,
    notifier: app.notifier,
    config: app.config,
    addressSecret: appSecret(app.db, 'code-client-address', app.now),
  };
  // Every write here either uses the session cookie or sets it: refuse other sites (CSRF, login CSRF).
  refuseCrossSiteWrites(app, { message: (request) => text(langOfRequest(request), 'crossSite') });
  // The logged-in user, found before the body is parsed: a stranger gets 401, never a 422 that
  // tells them what a valid request looks like.
  const sessionUsers = new WeakMap<FastifyRequest, ProductUserRow>();
  const loggedIn = async (request: FastifyRequest) => {
    sessionUsers.set(request, await requireSessionUser(deps, readSessionToken(request, 'diner'), langOfRequest(request)));
  };
  const userOf = (request: FastifyRequest): ProductUserRow => {
    const user = sessionUsers.get(request);
    if (!user) throw new Error('route without the loggedIn hook');
    return user;
  };
  // Answers here carry personal data or say who is logged in: no cache keeps them (errors included).
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  // Logout has no payload (docs/product.md §17); a client that still says application/json with an
  // empty body gets {} here instead of a 400. Other bodies go through Fastify's own safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, {});
    return parseJson(request, text, done);
  });

  app.post<{ Body: OtpSendBody }>(
    '/otp/send',
    {
      schema: doc(
        'Send a 6-digit code by SMS or email (valid 10 min, voids earlier codes; 5 sends per target and 30 per address per 10 min, then 429 + Retry-After; 403 at a venue without the login journey)',
        OtpSendBody,
        { 200: OtpSendResponse, ...errors(400, 403, 404, 422, 429) },
      ),
    },
    async (request) => sendCode(deps, request.body, request.ip, langOfRequest(request)),
  );

  const createWithCode = async (request: FastifyRequest<{ Body: CreateUserWithOtpBody }>, reply: FastifyReply) => {
    const { user, token, created } = await createUserWithCode(deps, request.body, langOfRequest(request));
    setSessionCookie(reply, app.config, token);
    return reply.status(created ? 201 : 200).send(user);
  };
  const createSchema = doc(
    'Create the product user with a code (201), or log in the account whose phone/email a code verified (200); the other contact is stored unverified; sets the session cookie',
    CreateUserWithOtpBody,
    { 200: ProductUser, 201: ProductUser, ...errors(400, 403, 422) },
  );
  app.post<{ Body: CreateUserWithOtpBody }>('/product-user/otp', { schema: createSchema }, createWithCode);
  app.post<{ Body: CreateUserWithOtpBody }>('/product-user', { schema: createSchema }, createWithCode);

  app.get(
    '/product-user',
    {
      preValidation: loggedIn,
      schema: doc('The logged-in product user (session cookie); 401 when not logged in', undefined, {
        200: ProductUser,
        ...errors(401),
      }),
    },
    async (request, reply) => reply.send(toProductUser(userOf(request))),
  );

  app.patch<{ Body: UpdateUserBody }>(
    '/product-user',
    {
      preValidation: loggedIn,
      schema: doc('Update the logged-in user (names, email, birthday, gender)', UpdateUserBody, {
        200: ProductUser,
        ...errors(400, 401, 403, 422),
      }),
    },
    async (request, reply) => reply.send(await updateProfile(deps, userOf(request), request.body, langOfRequest(request))),
  );

  app.post(
    '/product-user/logout',
    {
      schema: doc('End the session and clear its cookie (also when not logged in)', undefined, {
        200: LogoutResponse,
        ...errors(403),
      }),
    },
    async (request, reply) => {
      await endSession(deps, readSessionToken(request, 'diner'));
      clearSessionCookie(reply, app.config);
      return { loggedOut: true };
    },
  );

  app.post<{ Body: PassportBody }>(
    '/product-user/oauth2/passport',
    {
      schema: doc('Exchange a single-use passport (from an SMS link) for a session cookie', PassportBody, {
        200: ProductUser,
        ...errors(400, 401, 403, 422),
      }),
    },
    async (request, reply) => {
      const { user, token } = await exchangePassport(deps, request.body, langOfRequest(request));
      setSessionCookie(reply, app.config, token);
      return reply.send(user);
    },
  );

  app.post<{ Body: UserEventBody }>(
    '/product-user/event',
    {
      preValidation: loggedIn,
      schema: doc('Record a waitlist-login or waitlist-enter event of the logged-in user', UserEventBody, {
        201: UserEventResponse,
        ...errors(400, 401, 403, 422),
      }),
    },
    async (request, reply) => reply.status(201).send(await recordEvent(deps, userOf(request), request.body, langOfRequest(request))),
  );
}

/** The module's routes, under /api (app.ts registers every module the same way). */
export async function registerIdentity(app: FastifyInstance): Promise<void> {
  await app.register(identityRoutes, { prefix: '/api' });
}
