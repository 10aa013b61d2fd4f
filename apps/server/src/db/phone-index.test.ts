import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedSqlOf } from '../../test/prepared-sql.js';
import { postgresStore, postgresUrl, sqliteStore } from '../../test/stores.js';
import { findLatestOpenEntryByPhone, findOpenEntryByPhone } from '../modules/queue/entries.repository.js';
import type { Db } from './connect.js';

/**
 * docs/decisions/058-joins-straight-to-sqlite.md: the entries' phone has one index, (phone, created_at), and
 * both lookups by phone (a join's repeat check at its venue, an SMS reply's sender at any venue)
 * search it, newest first, without a sort of their own.
 */

/** The SQL of the repository's two lookups by phone, as they run (caught where better-sqlite3 prepares it). */
async function lookupsOf(db: Db): Promise<Record<string, string>> {
  const byPhone = /"phone" = \?/;
  return {
    repeatJoin: await preparedSqlOf(() => findOpenEntryByPhone(db.kysely, 'v', '+5511987654321'), byPhone),
    reply: await preparedSqlOf(() => findLatestOpenEntryByPhone(db.kysely, '+5511987654321'), byPhone),
  };
}

let open: Db | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe("the entries' phone index", () => {
  it('SQLite: one index on the phone, and both lookups search it', async () => {
    const db = (open = await sqliteStore.open());
    const { rows: indexes } = await sql<{ name: string }>`select name from pragma_index_list('entries')`.execute(db.kysely);
    expect(indexes.map((i) => i.name)).toContain('entries_reply_phone');
    expect(indexes.map((i) => i.name)).not.toContain('entries_phone');
    for (const [name, text] of Object.entries(await lookupsOf(db))) {
      const parameters = Array.from(text.matchAll(/\?/g), () => 'x');
      const plan = await db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, parameters));
      const steps = plan.rows.map((r) => r.detail);
      expect(steps, name).toEqual(['SEARCH entries USING INDEX entries_reply_phone (phone=?)']);
    }
  });

  it.runIf(postgresUrl)('PostgreSQL: the old index is gone after the migration', async () => {
    const db = (open = await postgresStore.open());
    const { rows } = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where schemaname = current_schema() and tablename = 'entries'`.execute(db.kysely);
    expect(rows.map((r) => r.indexname)).toContain('entries_reply_phone');
    expect(rows.map((r) => r.indexname)).not.toContain('entries_phone');
  });
});
