import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here.
// docs/product.md §3.7: an email or phone that no code has verified is contact data only. Each contact of
// a product user keeps the time a code verified it, and only verified contacts are unique (partial
// unique indexes): an unverified copy never matches an account nor keeps the real owner from
// signing up. The phone may now be empty: an unverified phone is detached from an account when its
// verified owner claims it. Rows from before keep the old model's reading: the phone was the
// verified identity (migration 003), the email only typed.
// Messages: `safe_body` is the body with its one-time code or login link masked; it replaces the
// body once the message is delivered or finally failed, so the stored row keeps no usable secret.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table product_users drop constraint if exists product_users_phone_key`.execute(db);
    await sql`alter table product_users drop constraint if exists product_users_email_key`.execute(db);
    await sql`alter table product_users alter column phone drop not null`.execute(db);
    await db.schema.alterTable('product_users').addColumn('phone_verified_at', 'bigint').execute();
    await db.schema.alterTable('product_users').addColumn('email_verified_at', 'bigint').execute();
  } else {
    await rebuildSqliteUsers(db);
  }
  await db
    .updateTable('product_users')
    .set({ phone_verified_at: sql`created_at` })
    .execute();
  for (const contact of ['phone', 'email']) {
    await db.schema
      .createIndex(`product_users_verified_${contact}`)
      .on('product_users')
      .column(contact)
      .unique()
      .where(sql.ref(`${contact}_verified_at`), 'is not', null)
      .execute();
    await db.schema.createIndex(`product_users_${contact}`).on('product_users').column(contact).execute();
  }
  await db.schema.alterTable('messages').addColumn('safe_body', 'text').execute();
}

/**
 * SQLite cannot drop a column's UNIQUE or NOT NULL: the table is rebuilt as SQLite documents it
 * (https://www.sqlite.org/lang_altertable.html#otheralter), with foreign keys off so that dropping
 * the old table does not cascade to sessions, passports and events, which then refer to the new one.
 * SQLite migrations do not run inside a transaction (no transactional DDL in Kysely's adapter).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function rebuildSqliteUsers(db: Kysely<any>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('product_users_new')
        .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('first_name', 'varchar(60)', (c) => c.notNull())
        .addColumn('last_name', 'varchar(60)', (c) => c.notNull())
        .addColumn('phone', 'varchar(20)')
        .addColumn('email', 'varchar(254)')
        .addColumn('birthday', 'varchar(10)')
        .addColumn('gender', 'varchar(30)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('phone_verified_at', 'bigint')
        .addColumn('email_verified_at', 'bigint')
        .execute();
      await sql`
        insert into product_users_new (id, first_name, last_name, phone, email, birthday, gender, created_at, updated_at)
        select id, first_name, last_name, phone, email, birthday, gender, created_at, updated_at from product_users
      `.execute(trx);
      await trx.schema.dropTable('product_users').execute();
      await trx.schema.alterTable('product_users_new').renameTo('product_users').execute();
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error('product_users rebuild broke a foreign key');
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('safe_body').execute();
  for (const contact of ['phone', 'email']) {
    await db.schema.dropIndex(`product_users_verified_${contact}`).execute();
    await db.schema.dropIndex(`product_users_${contact}`).execute();
  }
  await db.schema.alterTable('product_users').dropColumn('email_verified_at').execute();
  await db.schema.alterTable('product_users').dropColumn('phone_verified_at').execute();
}
