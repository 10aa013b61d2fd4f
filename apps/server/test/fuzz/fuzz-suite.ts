import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTableEntry } from '../../src/plugins/route-table.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, nextPhone, postJoin } from '../fixtures.js';
import { startTestApp, type TestApp } from '../harness.js';
import { signUp } from '../identity.js';
import { loginCookie } from '../staff-session.js';
import type { TestStore } from '../stores.js';
import { type Allowance, type Snapshot, diffSnapshots, listTables, snapshot } from './db-snapshot.js';
import { type FuzzBody, extraHeaders, fuzzBody, injected, paramValue, queryString, replaced, textPathsOf } from './fuzz-inputs.js';
import { PHONE, seedBodies } from './seed-bodies.js';

/**
 * Property-based fuzzing of every route the app registers (docs/security.md): malformed JSON,
 * wrong types, unknown keys, huge and unicode values, control characters, bad ids. Each answer
 * is below 500; each error answer has the JSON error shape; a refused request (4xx) changed no
 * row of any table. FUZZ_SEED replays a run, FUZZ_RUNS sets the runs per route and store.
 *
 * One file per store (`sqlite.fuzz.test.ts`, `postgres.fuzz.test.ts`), so the two run side by
 * side. `npm test` runs 20 per route; `npm run fuzz` runs 200 (README, Tests).
 */
const seed = Number(process.env.FUZZ_SEED ?? 20_261_123);
const numRuns = Number(process.env.FUZZ_RUNS ?? 20);

/** Limits far above what the fuzzer sends: a 429 would hide the route's own answer. */
const fuzzEnv = {
  RATE_LIMIT_JOINS_PER_10_MIN: '1000000',
  RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '1000000',
  OTP_SENDS_PER_TARGET_PER_10_MIN: '1000000',
  OTP_SENDS_PER_ADDRESS_PER_10_MIN: '1000000',
  LOGIN_MAX_PER_ACCOUNT_15_MIN: '1000000',
  LOGIN_MAX_PER_ADDRESS_15_MIN: '1000000',
};

/**
 * Refusals that change rows by design, each with its rule. Anything else a 4xx changes fails.
 * - A repeat join (409) sends the position link again by SMS (docs/product.md §3).
 * - A wrong code counts against the code's 5 tries (docs/product.md §3).
 */
const allowedChanges: Partial<Record<string, Allowance>> = {
  ALREADY_ON_WAITLIST: { tables: ['messages'], columns: ['entries.link_resent_at'] },
};
const wrongCodeAllowance: Allowance = { columns: ['one_time_codes.tries'] };

/** Streams never end for a real id, so they are fuzzed with ids that do not exist. */
const isStream = (route: RouteTableEntry) => route.method === 'GET' && route.url.endsWith('/events');
const isLogout = (route: RouteTableEntry) => route.url.endsWith('/logout');

interface Context {
  t: TestApp;
  tables: string[];
  /**
   * The store as the last refused request left it, unchanged since (a refusal changes nothing,
   * which each check proves): the next check's "before" without reading every table again.
   * Unset after an accepted request, which may change rows.
   */
  lastSeen?: Snapshot;
  staffCookie: string;
  userCookie: string;
  realParams: Record<string, string[]>;
}

async function prepare(t: TestApp): Promise<Context> {
  const entryIds: string[] = [];
  const shareIds: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const res = await postJoin(t);
    const id = (res.json() as { _id: string })._id;
    entryIds.push(id);
    const position = (await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json() as {
      waitlist: { shareId: string };
    };
    shareIds.push(position.waitlist.shareId);
  }
  const userCookie = await signUp(t, nextPhone().replace(/\s/g, ''));
  await t.app.notifier.drain();
  return {
    t,
    tables: await listTables(t.db),
    staffCookie: await loginCookie(t.app),
    userCookie,
    realParams: {
      // Mostly the staff member's own venue, so writes get past the venue check.
      venueId: [DEMO_BISTRO_ID, DEMO_BISTRO_ID, DEMO_CLUB_ID],
      waitlistId: [...entryIds, ...shareIds],
      entryId: entryIds,
      product: ['waitlist-api'],
      '*': [
        'placeholder-header.svg',
        'demo/bistro-banner-1.svg',
        'demo/clube-small.svg',
        'api/health',
        'remote-waitlist/' + DEMO_BISTRO_ID,
        'assets/x.js',
      ],
    },
  };
}

interface FuzzRequest {
  url: string;
  body: FuzzBody;
  headers: Record<string, string>;
}

function requestArbitrary(route: RouteTableEntry, ctx: Context): fc.Arbitrary<FuzzRequest> {
  const names = [...route.url.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');
  const params = fc.tuple(...names.map((name) => paramValue(isStream(route) ? [] : (ctx.realParams[name] ?? []))));
  const isWrite = route.method !== 'GET';
  const body = isWrite ? fuzzBody(seedBodies[`${route.method} ${route.url}`] ?? undefined) : fc.constant<FuzzBody>({ note: 'no body' });
  const sessionCookies = `${ctx.staffCookie}; ${ctx.userCookie}`;
  const cookie = fc.oneof(
    { weight: isLogout(route) ? 0 : 8, arbitrary: fc.constant(sessionCookies) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('vez_staff=nope', 'vez_user=%00%ff', 'vez_staff=' + 'a'.repeat(3000)) },
  );
  const site = fc.oneof(
    { weight: 8, arbitrary: fc.constant({ origin: ctx.t.config.publicBaseUrl, 'sec-fetch-site': 'same-origin' }) },
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constant({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }) },
  );
  return fc
    .record({ params, query: fc.option(queryString, { freq: 3 }), body, cookie, site, extra: extraHeaders })
    .map(({ params, query, body, cookie, site, extra }) => {
      let i = 0;
      const path = route.url.replace(/:(\w+)|\*/g, () => params[i++] ?? '');
      const headers: Record<string, string> = { ...extra, ...site };
      if (cookie) headers.cookie = cookie;
      if (body.contentType) headers['content-type'] = body.contentType;
      return { url: query ? `${path}?${query}` : path, body, headers };
    });
}

function isErrorBody(value: unknown, status: number): boolean {
  if (!value || typeof value !== 'object') return false;
  const body = value as Record<string, unknown>;
  return (
    body.statusCode === status &&
    typeof body.code === 'string' &&
    typeof body.message === 'string' &&
    (body.field === undefined || typeof body.field === 'string')
  );
}

const parseJson = (res: LightMyRequestResponse): unknown => {
  try {
    return res.json();
  } catch {
    return undefined;
  }
};

/** Answers seen per route, printed at the end: a route that only ever answers 401 is not fuzzed deeply. */
const seen = new Map<string, Map<number, number>>();
function count(route: RouteTableEntry, status: number): void {
  const key = `${route.method} ${route.url}`;
  const byStatus = seen.get(key) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  seen.set(key, byStatus);
}

async function checkOne(route: RouteTableEntry, ctx: Context, request: FuzzRequest): Promise<void> {
  const { t } = ctx;
  const payload = typeof request.body.payload === 'string' ? request.body.payload.replaceAll(PHONE, nextPhone()) : request.body.payload;
  const before = ctx.lastSeen ?? (await snapshot(t.db, ctx.tables));
  ctx.lastSeen = undefined;
  const res = await t.app.inject({
    method: route.method as 'GET',
    url: request.url,
    headers: request.headers,
    remoteAddress: '10.9.8.7',
    ...(payload !== undefined ? { payload } : {}),
  });
  await t.app.notifier.drain();
  count(route, res.statusCode);
  const what = `${route.method} ${request.url} [${request.body.note}] -> ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, what).toBeLessThan(500);
  if (res.statusCode < 400) return;
  // The web app's static files answer a plain 404; everything else answers the JSON error shape.
  const isStaticAsset = route.url === '/*' && request.url.startsWith('/assets/');
  const body = parseJson(res);
  if (!isStaticAsset) expect(isErrorBody(body, res.statusCode), `error shape: ${what}`).toBe(true);
  const code = (body as { code?: string } | undefined)?.code ?? '';
  const allowance = allowedChanges[code] ?? (route.url.startsWith('/api/product-user') ? wrongCodeAllowance : {});
  const after = await snapshot(t.db, ctx.tables);
  expect(diffSnapshots(before, after, allowance), `a refused request changed rows: ${what}`).toEqual([]);
  ctx.lastSeen = after;
}

/** Swept through every text of every valid body, one at a time (beside the random runs). */
const sweepChars = ['\u0000', '\u001b', '\u007f', '\u0085', '\u202e', '\u2067', '\ud800', '\u2028'];
const sweepValues = ['0000-00-00', '2026-02-30', 'x'.repeat(5000)];

/** The whole fuzz suite on one store. */
export function fuzzEveryRoute(store: TestStore): void {
  describe(`fuzzing every route on ${store.name}`, () => {
    process.stdout.write(`[fuzz] ${store.name}: seed ${seed}, ${numRuns} runs per route (FUZZ_SEED / FUZZ_RUNS to change)\n`);
    let ctx: Context;
    const routes: RouteTableEntry[] = [];

    beforeAll(async () => {
      const t = await startTestApp(store, fuzzEnv);
      ctx = await prepare(t);
      // Paths no route has go to the not-found handler (the web app's shell, or a JSON 404 under /api).
      routes.push(
        ...t.app.routeTable,
        { method: 'GET', url: '/*', hasBodySchema: false },
        { method: 'POST', url: '/api/*', hasBodySchema: false },
      );
    });
    afterAll(async () => {
      await ctx?.t.close();
    });

    it('knows the routes it fuzzes', () => {
      expect(routes.length).toBeGreaterThan(25);
      const keys = new Set(routes.map((r) => `${r.method} ${r.url}`));
      // Every valid seed body belongs to a route that exists: a renamed route must rename its seed.
      for (const key of Object.keys(seedBodies)) expect(keys.has(key), key).toBe(true);
    });

    it(
      'each text of each valid body, with a control character or an odd value, answers below 500 and a refusal changes nothing',
      { timeout: 300_000 },
      async () => {
        const headers = {
          cookie: `${ctx.staffCookie}; ${ctx.userCookie}`,
          origin: ctx.t.config.publicBaseUrl,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/json',
        };
        for (const route of routes) {
          const seedBody = seedBodies[`${route.method} ${route.url}`];
          if (seedBody === undefined) continue;
          const url = route.url.replace(/:(\w+)/g, (_match, name: string) => ctx.realParams[name]?.[0] ?? name);
          for (const path of textPathsOf(seedBody)) {
            const bodies = [
              ...sweepChars.map(
                (char) => [injected(seedBody, path, char, 1), `U+${char.charCodeAt(0).toString(16)} in ${path.join('.')}`] as const,
              ),
              ...sweepValues.map((value) => [replaced(seedBody, path, value), `${value.slice(0, 12)} as ${path.join('.')}`] as const),
            ];
            for (const [body, note] of bodies) {
              await checkOne(route, ctx, { url, headers, body: { payload: JSON.stringify(body), contentType: 'application/json', note } });
            }
          }
        }
      },
    );

    it('no route answers 5xx, every error has the JSON shape, and a refused request changes nothing', { timeout: 600_000 }, async () => {
      for (const [index, route] of routes.entries()) {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(route, ctx), (request) => checkOne(route, ctx, request)),
          // A route without parameters or body (a static file, the docs) has less to vary.
          { seed: seed + index, numRuns: route.method === 'GET' && !/[:*]/.test(route.url) ? Math.min(numRuns, 10) : numRuns },
        );
      }
      if (process.env.FUZZ_STATS) {
        for (const [key, byStatus] of seen)
          process.stdout.write(
            `[fuzz] ${key}: ${[...byStatus]
              .sort()
              .map(([s, n]) => `${s}x${n}`)
              .join(' ')}\n`,
          );
      }
      seen.clear();
    });
  });
}
