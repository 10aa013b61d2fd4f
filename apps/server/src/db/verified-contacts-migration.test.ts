import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type TestStore, stores } from '../../test/stores.js';
import { migrations } from './migrations/index.js';

const now = 1_763_900_000_000;

/**
 * Migration 007 rebuilds SQLite's product_users table (docs/product.md §3: only verified contacts are
 * unique). Sessions, passports and events refer to it with ON DELETE CASCADE: the rebuild must
 * keep them, and a user from before keeps the phone as verified.
 */
describe.each(stores)('migration 007 on a store with accounts ($name)', (store: TestStore) => {
  it('keeps every user, their sessions and passports, and reads the old phone as verified', async () => {
    const db = await store.open();
    try {
      const kysely = db.kysely;
      // A fresh store is already at the latest: go back to 006 to write rows of the old shape.
      const migrator = new Migrator({
        db: kysely,
        provider: { getMigrations: async () => migrations },
        ...(db.schema ? { migrationTableSchema: db.schema } : {}),
      });
      expect((await migrator.migrateTo('006-join-proof')).error).toBeUndefined();
      await sql`insert into product_users (id, first_name, last_name, phone, email, birthday, gender, created_at, updated_at)
        values ('u1', 'Ana', 'Souza', '+5511987650001', 'ana@example.com', null, null, ${now}, ${now})`.execute(kysely);
      await sql`insert into user_sessions (token_hash, user_id, created_at, expires_at) values ('h1', 'u1', ${now}, ${now + 1000})`.execute(
        kysely,
      );
      await sql`insert into passports (token_hash, user_id, entry_id, created_at, expires_at, used_at)
        values ('p1', 'u1', null, ${now}, ${now + 1000}, null)`.execute(kysely);

      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const user = await kysely.selectFrom('product_users').selectAll().where('id', '=', 'u1').executeTakeFirstOrThrow();
      expect(user).toMatchObject({ phone: '+5511987650001', email: 'ana@example.com', email_verified_at: null });
      expect(Number(user.phone_verified_at)).toBe(now);
      expect(await kysely.selectFrom('user_sessions').select('user_id').execute()).toEqual([{ user_id: 'u1' }]);
      expect(await kysely.selectFrom('passports').select('user_id').execute()).toEqual([{ user_id: 'u1' }]);
      // The cascade still works on the rebuilt table.
      await kysely.deleteFrom('product_users').where('id', '=', 'u1').execute();
      expect(await kysely.selectFrom('user_sessions').select('user_id').execute()).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
