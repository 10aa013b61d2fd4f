import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/product.md §10, messages that arrive in Brazil (docs/decisions/029-whatsapp-templates.md):
// - entries: the party's consent to WhatsApp (0/1), its last inbound WhatsApp message (the 24-hour
//   customer-service window), and by which channel its last message went, with the channel that
//   failed before it when it went by SMS as a fallback;
// - entry_messages: the same two for a staff message in the thread;
// - messages: the approved template a WhatsApp message goes as (ContentSid, ContentVariables), the
//   text its SMS fallback would carry, and, on a fallback SMS, the WhatsApp message it replaces.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('entries')
    .addColumn('whatsapp_opt_in', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('entries').addColumn('whatsapp_inbound_at', 'bigint').execute();
  await db.schema.alterTable('entries').addColumn('last_message_channel', 'varchar(16)').execute();
  await db.schema.alterTable('entries').addColumn('last_message_fallback', 'varchar(16)').execute();
  await db.schema.alterTable('entry_messages').addColumn('channel', 'varchar(16)').execute();
  await db.schema.alterTable('entry_messages').addColumn('fallback_from', 'varchar(16)').execute();
  await db.schema.alterTable('messages').addColumn('content_sid', 'varchar(64)').execute();
  await db.schema.alterTable('messages').addColumn('content_variables', 'text').execute();
  await db.schema.alterTable('messages').addColumn('fallback_body', 'text').execute();
  await db.schema.alterTable('messages').addColumn('fallback_of', 'varchar(64)').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['fallback_of', 'fallback_body', 'content_variables', 'content_sid']) {
    await db.schema.alterTable('messages').dropColumn(column).execute();
  }
  for (const column of ['fallback_from', 'channel']) await db.schema.alterTable('entry_messages').dropColumn(column).execute();
  for (const column of ['last_message_fallback', 'last_message_channel', 'whatsapp_inbound_at', 'whatsapp_opt_in']) {
    await db.schema.alterTable('entries').dropColumn(column).execute();
  }
}
