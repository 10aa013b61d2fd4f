import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stores } from '../../test/stores.js';
import type { Db } from '../db/connect.js';
import { registerErrorHandling } from './errors.js';
import type { ErrorReporter } from './reporter.js';

/**
 * The safety net under the contract's checks (docs/security.md): a value the database refuses
 * (PostgreSQL data exceptions, SQLite's too-big) answers 422, not 500, and is not reported as a
 * crash; a real failure still answers a bare 500.
 */
describe.each(stores)('database errors caused by input on $name', (store) => {
  let db: Db;
  let app: FastifyInstance;
  const reports: unknown[] = [];

  beforeAll(async () => {
    db = await store.open();
    app = Fastify({ logger: false });
    const reporter: ErrorReporter = { report: (error) => void reports.push(error), flush: async () => {} };
    app.decorate('reporter', reporter);
    registerErrorHandling(app);
    app.get<{ Querystring: { q: string } }>('/probe', async (request) => {
      const queries: Record<string, () => Promise<unknown>> = {
        nul: () => sql`select ${'a\u0000b'}::text as v`.execute(db.kysely),
        date: () => sql`select ${'0000-00-00'}::date as v`.execute(db.kysely),
        number: () => sql`select ${'12abc'}::integer as v`.execute(db.kysely),
        toobig: () => sql`select zeroblob(2000000000) as v`.execute(db.kysely),
        missing: () => sql`select * from no_such_table`.execute(db.kysely),
      };
      return queries[request.query.q]?.();
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const probe = (q: string) => app.inject({ method: 'GET', url: `/probe?q=${q}` });

  // Each store refuses values its own way: PostgreSQL's data exceptions (NUL 22021, dates 22008,
  // numbers 22P02), SQLite's too-big.
  const refusedValues = { postgres: ['nul', 'date', 'number'], sqlite: ['toobig'] }[store.name];

  it(`a value the store refuses (${refusedValues.join(', ')}) answers 422 and is not reported as a crash`, async () => {
    reports.length = 0;
    for (const q of refusedValues) {
      const res = await probe(q);
      expect(res.statusCode, q).toBe(422);
      expect(res.json()).toEqual({ statusCode: 422, code: 'VALIDATION_FAILED', message: 'A value in the request cannot be stored.' });
    }
    expect(reports).toEqual([]);
  });

  it('any other database failure is still a bare, reported 500', async () => {
    reports.length = 0;
    const res = await probe('missing');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'UNKNOWN_ERROR' });
    expect(reports).toHaveLength(1);
  });
});
