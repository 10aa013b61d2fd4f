import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, postJoin } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { stores } from '../../test/stores.js';
import type { ErrorReporter } from './reporter.js';

const SOME_ENTRY = 'AAAAAAAAAAAAAAAAAAAAAA';

/** Every unexpected server error goes to the reporter and answers a 500 with no detail. */
describe.each(stores)('error reporter on $name', (store) => {
  const reports: { error: unknown; context?: Record<string, string> }[] = [];
  const reporter: ErrorReporter = {
    report: (error, context) => void reports.push({ error, context }),
    flush: async () => {},
  };
  const t = useTestApp(store, {}, { reporter });

  beforeAll(async () => {
    // A store that fails under the routes: the entries table is gone.
    // The conversation's tables refer to entries: PostgreSQL drops them too (cascade).
    await sql.raw(t.db.dialect === 'postgres' ? 'drop table entries cascade' : 'drop table entries').execute(t.db.kysely);
  });

  const expectBare500 = (res: { statusCode: number; json(): unknown; body: string }) => {
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ statusCode: 500, code: 'UNKNOWN_ERROR', message: 'Ocorreu um erro inesperado.' });
    expect(res.body).not.toMatch(/entries|table|relation|sql|at /i);
  };

  it('a failing read answers 500 UNKNOWN_ERROR with no detail and is reported with its route', async () => {
    reports.length = 0;
    const res = await t.app.inject({ method: 'GET', url: `/api/waitlists/${SOME_ENTRY}/position` });
    expectBare500(res);
    expect(reports).toHaveLength(1);
    expect(String((reports[0]?.error as Error).message)).toMatch(/entries/);
    expect(reports[0]?.context).toEqual({ route: '/api/waitlists/:waitlistId/position', method: 'GET' });
  });

  it('a failing join answers 500, is reported, and leaves the ticket counter alone', async () => {
    reports.length = 0;
    const seq = async () =>
      (await t.db.kysely.selectFrom('venues').select('next_seq').where('id', '=', DEMO_BISTRO_ID).executeTakeFirstOrThrow()).next_seq;
    const before = await seq();
    const res = await postJoin(t);
    expectBare500(res);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.context).toMatchObject({ route: '/api/waitlists/:venueId/create', method: 'POST' });
    expect(await seq()).toBe(before);
  });

  it('bad input is answered, not reported', async () => {
    reports.length = 0;
    const badId = await t.app.inject({ method: 'GET', url: '/api/waitlists/not-an-id/position' });
    expect(badId.statusCode).toBe(400);
    const badJson = await t.app.inject({
      method: 'POST',
      url: `/api/waitlists/${DEMO_BISTRO_ID}/create`,
      headers: { 'content-type': 'application/json' },
      payload: '{"customer":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(reports).toHaveLength(0);
  });
});
