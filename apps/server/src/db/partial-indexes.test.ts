import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedSqlOf } from '../../test/prepared-sql.js';
import { postgresStore, postgresUrl, sqliteStore } from '../../test/stores.js';
import { countOpenFromAddress, pointAtFallback, recordDeliveryOf } from '../modules/queue/entries.repository.js';
import { findByProviderId } from '../modules/notifications/messages.repository.js';
import type { Db } from './connect.js';

/**
 * docs/decisions/062-partial-indexes.md: three indexes hold only the rows their queries ask for, and
 * each of those queries, as the repositories run it, searches its index (a query that did not name
 * the index's condition would read another index or the table instead, and still answer right). Their
 * conditions are only `is null` and `is not null`: a constant there makes SQLite prepare again, at
 * every run, each statement binding a value to that column.
 */

/** Each index, the repository call that must search it, and what picks that call's statement out. */
const LOOKUPS: { index: string; table: string; pick: RegExp; run: (db: Db) => Promise<unknown> }[] = [
  { index: 'entries_open_by_client', table: 'entries', pick: /client_key/, run: (db) => countOpenFromAddress(db.kysely, 'v', 'k', 3) },
  {
    index: 'entries_with_last_message',
    table: 'entries',
    pick: /^update "entries"/,
    run: (db) => recordDeliveryOf(db.kysely, ['m1', 'm2'], 'delivered', ['queued', 'sent']),
  },
  { index: 'entries_with_last_message', table: 'entries', pick: /^update "entries"/, run: (db) => pointAtFallback(db.kysely, 'w', 's') },
  { index: 'messages_sent_by_provider_id', table: 'messages', pick: /provider_id" = /, run: (db) => findByProviderId(db.kysely, 'SM1') },
];

/** The SQL a repository call runs on SQLite, picked out by `pick`. */
const sqlOf = (db: Db, lookup: (typeof LOOKUPS)[number]) => preparedSqlOf(() => lookup.run(db), lookup.pick, lookup.index);

let open: Db | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('partial indexes (migration 020)', () => {
  it('SQLite: the three indexes are partial, on nulls only, and every query of theirs searches them', async () => {
    const db = (open = await sqliteStore.open());
    for (const table of ['entries', 'messages']) {
      const { rows } = await sql<{ name: string; partial: number }>`select name, partial from pragma_index_list(${table})`.execute(
        db.kysely,
      );
      const partial = rows.filter((r) => r.partial === 1).map((r) => r.name);
      expect(partial.sort()).toEqual(
        table === 'entries' ? ['entries_open_by_client', 'entries_with_last_message'] : ['messages_sent_by_provider_id'],
      );
      // The whole indexes they replace are gone.
      for (const old of ['entries_last_message', 'entries_venue_client', 'messages_provider_id'])
        expect(rows.map((r) => r.name)).not.toContain(old);
    }
    // No constant in any partial index's condition (no quote, no digit): only `is [not] null`.
    const { rows: conditions } = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'index' and sql like '% where %'`.execute(db.kysely);
    expect(conditions.length).toBeGreaterThanOrEqual(3);
    for (const { name, sql: text } of conditions) {
      const where = text.replace(/^.* where /is, '');
      expect(where, name).toMatch(/^("?\w+"? is (not )?null)( and "?\w+"? is (not )?null)*$/i);
    }
    for (const lookup of LOOKUPS) {
      const text = await sqlOf(db, lookup);
      const parameters = Array.from(text.matchAll(/\?/g), () => 'x');
      const plan = await db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, parameters));
      const steps = plan.rows.map((r) => r.detail).join(' | ');
      expect(steps, `${lookup.index}: ${text}`).toMatch(
        new RegExp(`(SEARCH|SCAN) ${lookup.table} USING (COVERING )?INDEX ${lookup.index}\\b`),
      );
    }
  });

  it.runIf(postgresUrl)('PostgreSQL: the three indexes are partial, with the conditions the queries name', async () => {
    const db = (open = await postgresStore.open());
    const { rows } = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('entries', 'messages')`.execute(
      db.kysely,
    );
    const where = Object.fromEntries(rows.map((r) => [r.indexname, r.indexdef.replace(/^.* WHERE /, '')]));
    expect(where.entries_with_last_message).toBe('(last_message_id IS NOT NULL)');
    expect(where.entries_open_by_client).toBe('(ended_at IS NULL)');
    expect(where.messages_sent_by_provider_id).toBe('(provider_id IS NOT NULL)');
    // The whole indexes they replace are gone.
    for (const old of ['entries_last_message', 'entries_venue_client', 'messages_provider_id']) expect(where[old]).toBeUndefined();
  });

  it.runIf(postgresUrl)('PostgreSQL: every query of theirs searches them, in the plan made once for every value', async () => {
    const lite = (open = await sqliteStore.open());
    const texts = [];
    for (const lookup of LOOKUPS) texts.push({ lookup, text: await sqlOf(lite, lookup) });
    await lite.close();
    const db = (open = await postgresStore.open());
    for (const { lookup, text } of texts) {
      // The same statement with PostgreSQL's placeholders (Kysely writes both alike but for those).
      let n = 0;
      const statement = text.replace(/\?/g, () => `$${++n}`);
      const plan = await db.kysely.transaction().execute(async (trx) => {
        // The generic plan, as a statement prepared once runs after its first few: what its own
        // conditions prove for every value. An empty table is read whole whatever its indexes, so
        // sequential scans are priced out: the index is used if it can be.
        await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
        await sql`set local enable_seqscan = off`.execute(trx);
        await trx.executeQuery(CompiledQuery.raw(`prepare partial_index_check as ${statement}`));
        const { rows: types } = await sql<{ types: string[] }>`
          select parameter_types::text[] as types from pg_prepared_statements where name = 'partial_index_check'`.execute(trx);
        const values = (types[0]?.types ?? []).map((type) => (/int|numeric/.test(type) ? '1' : type === 'boolean' ? 'false' : "'x'"));
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain execute partial_index_check${values.length ? `(${values.join(', ')})` : ''}`),
        );
        await trx.executeQuery(CompiledQuery.raw('deallocate partial_index_check'));
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan, `${lookup.index}: ${statement}`).toMatch(
        new RegExp(`Index (Only )?Scan using ${lookup.index} on ${lookup.table}\\b|Bitmap Index Scan on ${lookup.index}\\b`),
      );
    }
  });
});
