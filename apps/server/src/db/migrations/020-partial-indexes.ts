import { type Kysely, sql } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/decisions/062-partial-indexes.md: three indexes hold only the rows their queries look for.
// Every index a change touches is a page written at its commit, and a change that moves a row
// within an index touches two. These kept every row for queries that only ever ask for a few:
// - entries_last_message: an entry's last message (delivery receipts); a join inserted its entry
//   there without a message, then moved it. Now entries_with_last_message: only entries with one.
// - entries_venue_client: a venue's open parties from one address (docs/decisions/026); every party
//   ever, with its status, so a call moved it. Now entries_open_by_client: only open ones.
// - messages_provider_id: a message by its provider's id (status callbacks). Now
//   messages_sent_by_provider_id: only messages that have one.
// Only `is null` and `is not null` conditions: a constant in an index's condition makes SQLite
// prepare again, at every run, each statement that binds a value to that column (the decision).
// The new indexes are made before the old ones are dropped, under new names: on PostgreSQL the
// migration's transaction then blocks the tables' writes while the new indexes are built, never their
// reads (dropping an index locks its table against reads too, until the migration commits).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('entries_with_last_message')
    .on('entries')
    .column('last_message_id')
    .where(sql<boolean>`last_message_id is not null`)
    .execute();
  await db.schema
    .createIndex('entries_open_by_client')
    .on('entries')
    .columns(['venue_id', 'client_key'])
    .where(sql<boolean>`ended_at is null`)
    .execute();
  await db.schema
    .createIndex('messages_sent_by_provider_id')
    .on('messages')
    .column('provider_id')
    .where(sql<boolean>`provider_id is not null`)
    .execute();
  for (const name of ['entries_last_message', 'entries_venue_client', 'messages_provider_id']) await db.schema.dropIndex(name).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('entries_last_message').on('entries').column('last_message_id').execute();
  await db.schema.createIndex('entries_venue_client').on('entries').columns(['venue_id', 'client_key', 'status']).execute();
  await db.schema.createIndex('messages_provider_id').on('messages').column('provider_id').execute();
  for (const name of ['entries_with_last_message', 'entries_open_by_client', 'messages_sent_by_provider_id']) {
    await db.schema.dropIndex(name).execute();
  }
}
