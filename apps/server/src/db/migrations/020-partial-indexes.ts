import { type Kysely, sql } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/decisions/062-partial-indexes.md: three indexes hold only the rows their queries look for.
// Every index a change touches is a page written at its commit, and a change that moves a row
// within an index touches two. These kept every row for queries that only ever ask for a few:
// - entries_last_message: an entry's last message (delivery receipts); a join inserted its entry
//   there without a message, then moved it; now only entries with a message.
// - entries_venue_client: a venue's open parties from one address (docs/decisions/026); every party
//   ever, with its status, so a call moved it; now only open ones (`ended_at` null).
// - messages_provider_id: a message by its provider's id (status callbacks); now only sent ones.
// Only `is null` and `is not null` conditions: a constant in an index's condition makes SQLite
// prepare again, at every run, each statement that binds a value to that column (the decision).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('entries_last_message').execute();
  await db.schema
    .createIndex('entries_last_message')
    .on('entries')
    .column('last_message_id')
    .where(sql<boolean>`last_message_id is not null`)
    .execute();
  await db.schema.dropIndex('entries_venue_client').execute();
  await db.schema
    .createIndex('entries_venue_client')
    .on('entries')
    .columns(['venue_id', 'client_key'])
    .where(sql<boolean>`ended_at is null`)
    .execute();
  await db.schema.dropIndex('messages_provider_id').execute();
  await db.schema
    .createIndex('messages_provider_id')
    .on('messages')
    .column('provider_id')
    .where(sql<boolean>`provider_id is not null`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['entries_last_message', 'entries_venue_client', 'messages_provider_id']) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.createIndex('entries_last_message').on('entries').column('last_message_id').execute();
  await db.schema.createIndex('entries_venue_client').on('entries').columns(['venue_id', 'client_key', 'status']).execute();
  await db.schema.createIndex('messages_provider_id').on('messages').column('provider_id').execute();
}
