import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db } from '../src/db/connect.js';
import type { Database } from '../src/db/types.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID } from '../src/seed/demo.js';

export { DEMO_BISTRO_ID, DEMO_CLUB_ID };

let phoneCounter = 0;
/** A fresh valid Brazilian mobile number per call. */
export function nextPhone(): string {
  phoneCounter += 1;
  return `+55 11 9${String(80000000 + phoneCounter * 7919 + Math.floor(Math.random() * 1000)).slice(-8)}`;
}

/** A diner's create body (docs/product.md §13) at `venue`, with a fresh phone; `overrides` replace its keys (`customer` merges). */
export function createBody(overrides: Record<string, unknown> = {}, venue = DEMO_BISTRO_ID) {
  const { customer, ...rest } = overrides as { customer?: Record<string, unknown> };
  return {
    customer: { name: 'Ana Souza', phone: nextPhone(), email: '', ...customer },
    venue,
    origin: { label: 'Widget' },
    partySize: 2,
    benefits: '',
    logs: { actionType: 'Add' },
    data: { origin: 'Waitlist widget' },
    sendSms: true,
    note: '',
    ...rest,
  };
}

/** Where and how a test join is posted: the venue (the demo bistro by default), headers, the client address. */
export interface JoinOptions {
  venueId?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/**
 * A diner's join as the page posts it (POST /api/waitlists/:venueId/create with
 * `createBody(overrides, venueId)`); answers the response as it came, for suites that check refusals.
 */
export function postJoin(
  t: { app: FastifyInstance },
  overrides: Record<string, unknown> = {},
  options: JoinOptions = {},
): Promise<LightMyRequestResponse> {
  const venueId = options.venueId ?? DEMO_BISTRO_ID;
  return t.app.inject({
    method: 'POST',
    url: `/api/waitlists/${venueId}/create`,
    payload: createBody(overrides, venueId),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** A party that joined: its entry id, the proof a repeat join shows, the phone as typed, the answer. */
export interface JoinedParty {
  id: string;
  joinProof: string | undefined;
  phone: string;
  body: { _id: string; created: boolean; joinProof?: string; globalPos?: number };
  res: LightMyRequestResponse;
}

/**
 * Joins a party (`postJoin`) and insists on a new entry (201): the one-line join of the suites that
 * need a party in the queue (docs/ARCHITECTURE.md habit 17).
 */
export async function joinParty(
  t: { app: FastifyInstance },
  overrides: Record<string, unknown> = {},
  options: JoinOptions = {},
): Promise<JoinedParty> {
  const customer = (overrides.customer ?? {}) as Record<string, unknown>;
  const phone = typeof customer.phone === 'string' ? customer.phone : nextPhone();
  const res = await postJoin(t, { ...overrides, customer: { ...customer, phone } }, options);
  if (res.statusCode !== 201) throw new Error(`join answered ${res.statusCode}: ${res.body}`);
  const body = res.json() as JoinedParty['body'];
  return { id: body._id, joinProof: body.joinProof, phone, body, res };
}

/**
 * Makes a store weigh `megabytes` more with images of incompressible bytes (ids `pad0`, `pad1`, …):
 * a copy of it then takes several steps, with the event loop free between them.
 */
export async function padWithImages(db: Db, megabytes: number): Promise<void> {
  for (let i = 0; i < megabytes; i += 1) {
    const bytes = randomBytes(1_000_000);
    await db.kysely
      .insertInto('images')
      .values({
        id: `pad${i}`,
        venue_id: DEMO_BISTRO_ID,
        content_type: 'image/png',
        bytes,
        width: 1,
        height: 1,
        size: bytes.length,
        created_at: 0,
      })
      .execute();
  }
}

/**
 * How many rows `table` holds, where each column of `where` equals its value: the suites' checks
 * that a refusal stored nothing and a bound counted right (docs/ARCHITECTURE.md habit 17).
 */
export async function countRows(db: Db, table: keyof Database & string, where: Record<string, string | number> = {}): Promise<number> {
  // Any table by name: a count needs no row type, so the columns are read loosely here.
  const loose = db.kysely as unknown as Kysely<Record<string, Record<string, string | number>>>;
  let query = loose.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n'));
  for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
  return Number((await query.executeTakeFirstOrThrow()).n);
}
