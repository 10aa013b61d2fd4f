import { type Kysely, type UpdateQueryBuilder, type UpdateResult, sql } from 'kysely';
import { type ListArgs, argsOf, columnsOf, compiledOnce, lengthOf, listArgs, listOf } from '../../db/compiled-once.js';
import type { Database, EntryRow, NewEntryRow } from '../../db/types.js';
import { eraseTextsOfEntriesErasedAt, markMessagesRead, pointThreadAtFallback, recordMessageStatus } from './entry-messages.repository.js';

/**
 * The `entries` table: the only place with its SQL (docs/ARCHITECTURE.md habit 3, one repository
 * per table). A query that also reads or writes the thread (`entry_messages`) asks
 * entry-messages.repository.ts for its part; the SQL counts of a position read are placement.ts's
 * rule written for the store (placement.test.ts checks them against it).
 */

type Executor = Kysely<Database>;

/**
 * Every column of an entry, named: the hot statements that read whole rows list them instead of
 * `*`, so that on PostgreSQL they stay prepared, inside transactions too, when a migration adds a
 * column (db/pg-named.ts, docs/decisions/070-named-statements-on-postgresql.md). The record has
 * each key of the row once: the type check fails when the table gains or loses a column.
 */
const ENTRY_COLUMNS = Object.keys({
  id: 1,
  share_id: 1,
  venue_id: 1,
  seq: 1,
  status: 1,
  priority: 1,
  party_size: 1,
  band: 1,
  name: 1,
  phone: 1,
  email: 1,
  note: 1,
  section: 1,
  origin_label: 1,
  lang: 1,
  created_at: 1,
  notified_at: 1,
  seated_at: 1,
  cancelled_at: 1,
  cancel_reason: 1,
  ended_at: 1,
  erased_at: 1,
  join_proof_hash: 1,
  client_key: 1,
  link_resent_at: 1,
  reply_kind: 1,
  reply_minutes: 1,
  reply_at: 1,
  calls: 1,
  hold_until: 1,
  hold_extended: 1,
  unread: 1,
  last_message_id: 1,
  last_message_status: 1,
  last_message_channel: 1,
  last_message_fallback: 1,
  whatsapp_opt_in: 1,
  whatsapp_inbound_at: 1,
  venue_messages: 1,
  venue_message_at: 1,
  getting_close_at: 1,
  quoted_minutes: 1,
  quoted_low: 1,
  quoted_high: 1,
  quote_basis: 1,
} satisfies Record<keyof EntryRow, 1>) as (keyof EntryRow)[];

const entryById = compiledOnce<{ id: string }, EntryRow>((db, arg) =>
  db.selectFrom('entries').select(ENTRY_COLUMNS).where('id', '=', arg('id')).compile(),
);

export async function findEntryById(db: Executor, id: string): Promise<EntryRow | undefined> {
  return (await entryById(db, { id })).rows[0];
}

export function findEntryByShareId(db: Executor, shareId: string): Promise<EntryRow | undefined> {
  return db.selectFrom('entries').selectAll().where('share_id', '=', shareId).executeTakeFirst();
}

// Compiled once (db/compiled-once.ts): every join runs it (docs/decisions/042-cheaper-joins.md).
const openEntryByPhone = compiledOnce<{ venueId: string; phone: string }, EntryRow>((db, arg) =>
  db
    .selectFrom('entries')
    .select(ENTRY_COLUMNS)
    .where('venue_id', '=', arg('venueId'))
    .where('phone', '=', arg('phone'))
    .where('status', 'in', ['active', 'called'])
    .orderBy('created_at', 'desc')
    .compile(),
);

/** The open (waiting or called) entry with this phone at the venue, if any (docs/product.md §3). */
export async function findOpenEntryByPhone(db: Executor, venueId: string, phone: string): Promise<EntryRow | undefined> {
  return (await openEntryByPhone(db, { venueId, phone })).rows[0];
}

/** Open entries (waiting or called) at the venue joined from one client address (docs/decisions/026). */
export async function countOpenFromAddress(db: Executor, venueId: string, clientKey: string, upTo: number): Promise<number> {
  // Counted up to the bound only: a join never walks more of the index than the limit it checks.
  const open = db
    .selectFrom('entries')
    .select(sql<number>`1`.as('one'))
    .where('venue_id', '=', venueId)
    .where('client_key', '=', clientKey)
    .where('status', 'in', ['active', 'called'])
    // An open party has not ended: the condition of the index of open parties by address (migration 020).
    .where('ended_at', 'is', null)
    .limit(upTo)
    .as('open');
  const row = await db
    .selectFrom(open)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Notes that a repeat join sends the link again, unless one did less than `intervalMs` ago; true
 * when this caller won. One conditional UPDATE: on PostgreSQL a concurrent one waits for the row
 * and re-checks the condition, so two repeat joins at once never both win.
 */
export async function markLinkResent(db: Executor, entryId: string, now: number, intervalMs: number): Promise<boolean> {
  const result = await db
    .updateTable('entries')
    .set({ link_resent_at: now })
    .where('id', '=', entryId)
    .where((eb) => eb.or([eb('link_resent_at', 'is', null), eb('link_resent_at', '<=', now - intervalMs)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// Compiled once per set of columns (db/compiled-once.ts): every join inserts one (docs/decisions/042-cheaper-joins.md).
const entryInsert = compiledOnce<NewEntryRow>((db, arg, row) => db.insertInto('entries').values(argsOf(arg, row)).compile(), columnsOf);

export async function insertEntry(db: Executor, row: NewEntryRow): Promise<void> {
  await entryInsert(db, row);
}

/**
 * Waiting parties ahead of an entry: priority first, then join order (docs/product.md §4). Reads only
 * the venue's waiting rows through the `entries_queue` index, never its history.
 */
export async function countWaitingAhead(
  db: Executor,
  entry: Pick<EntryRow, 'venue_id' | 'priority' | 'seq'>,
  band?: number,
): Promise<number> {
  // Two ranges of the covering index (higher priority; same priority, earlier ticket) rather than
  // one OR, which made SQLite visit every waiting row of the venue and read the table for each.
  const inBand = band === undefined ? sql`` : sql`and band = ${band}`;
  const { rows } = await sql<{ n: number | string }>`
    select
      (select count(*) from entries
        where venue_id = ${entry.venue_id} and status = 'active' and priority > ${entry.priority} ${inBand})
      + (select count(*) from entries
        where venue_id = ${entry.venue_id} and status = 'active' and priority = ${entry.priority} and seq < ${entry.seq} ${inBand}) as n
  `.execute(db);
  return Number(rows[0]?.n ?? 0);
}

// The hub reads a venue's whole queue at its first refresh and after its bound: compiled once
// (db/compiled-once.ts, docs/decisions/051-change-path-compiled-once.md).
const openEntries = compiledOnce<{ venueId: string }, EntryRow>((db, arg) =>
  db
    .selectFrom('entries')
    .selectAll()
    .where('venue_id', '=', arg('venueId'))
    .where('status', 'in', ['active', 'called'])
    .orderBy('priority', 'desc')
    .orderBy('seq', 'asc')
    .compile(),
);

/** The live queue of a venue: waiting and called entries in queue order. */
export async function listOpenEntries(db: Executor, venueId: string): Promise<EntryRow[]> {
  return (await openEntries(db, { venueId })).rows;
}

type EntryPatch = Partial<Omit<EntryRow, 'id' | 'share_id' | 'venue_id' | 'seq'>>;

/** An update of the columns a patch sets (its shape, `columnsOf`), `where` the entry is `id`, maybe only while open. */
const patchArgs = (id: string, patch: EntryPatch): Record<string, unknown> => {
  const args: Record<string, unknown> = { id };
  for (const column in patch) args[`set_${column}`] = patch[column as keyof EntryPatch];
  return args;
};
const entryUpdate = compiledOnce<Record<string, unknown>>(
  (db, arg, args) =>
    db
      .updateTable('entries')
      .set(argsOf(arg as (name: string) => unknown, args.patch as EntryPatch, 'set_'))
      .where('id', '=', arg('id') as string)
      .compile(),
  (args) => columnsOf(args.patch as object),
);
const openEntryUpdate = compiledOnce<Record<string, unknown>>(
  (db, arg, args) =>
    db
      .updateTable('entries')
      .set(argsOf(arg as (name: string) => unknown, args.patch as EntryPatch, 'set_'))
      .where('id', '=', arg('id') as string)
      .where('status', 'in', ['active', 'called'])
      .compile(),
  (args) => columnsOf(args.patch as object),
);

export async function updateEntry(db: Executor, id: string, patch: EntryPatch): Promise<void> {
  await entryUpdate(db, { ...patchArgs(id, patch), patch });
}

/** Counts per band (index: band, 0 where none) from rows of `band` and counts. */
export function byBand<K extends string>(rows: readonly Record<'band' | K, number | string | null>[], key: K): number[] {
  const out: number[] = [];
  for (const row of rows) {
    const band = Number(row.band);
    if (!(band >= 0)) continue;
    while (out.length <= band) out.push(0);
    out[band] = out[band]! + Number(row[key] ?? 0);
  }
  return out;
}

/**
 * Waiting parties ahead of an entry and parties called at its venue, per band (index: band), in
 * one round trip: what a position read's estimate counts in the entry's band and its size classes
 * (estimator.ts). The waiting through the `entries_queue` index as countWaitingAhead.
 */
export async function countBeforeByBand(
  db: Executor,
  entry: Pick<EntryRow, 'venue_id' | 'priority' | 'seq'>,
): Promise<{ aheadByBand: number[]; calledByBand: number[] }> {
  const { rows } = await sql<Record<'band' | 'ahead' | 'called', number | string | null>>`
    select band, sum(ahead) as ahead, sum(called) as called from (
      select band, count(*) as ahead, 0 as called from entries
        where venue_id = ${entry.venue_id} and status = 'active' and priority > ${entry.priority} group by band
      union all
      select band, count(*) as ahead, 0 as called from entries
        where venue_id = ${entry.venue_id} and status = 'active' and priority = ${entry.priority} and seq < ${entry.seq} group by band
      union all
      select band, 0 as ahead, count(*) as called from entries
        where venue_id = ${entry.venue_id} and status = 'called' group by band
    ) counts group by band
  `.execute(db);
  return { aheadByBand: byBand(rows, 'ahead'), calledByBand: byBand(rows, 'called') };
}

/** Parties called and not yet seated at a venue (in one band when given): few, through entries_queue. */
/** The venue's called parties, only what placing the waiting ones needs (getting-close.service.ts). */
const calledBands = compiledOnce<{ venueId: string }, Pick<EntryRow, 'id' | 'status' | 'band'>>((db, arg) =>
  db.selectFrom('entries').select(['id', 'status', 'band']).where('venue_id', '=', arg('venueId')).where('status', '=', 'called').compile(),
);

export async function listCalledBands(db: Executor, venueId: string): Promise<Pick<EntryRow, 'id' | 'status' | 'band'>[]> {
  return (await calledBands(db, { venueId })).rows;
}

export async function countCalled(db: Executor, venueId: string, band?: number): Promise<number> {
  let query = db
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('venue_id', '=', venueId)
    .where('status', '=', 'called');
  if (band !== undefined) query = query.where('band', '=', band);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Erases the personal data of entries that ended before `cutoff`; returns how many. */
export function erasePersonalDataEndedBefore(db: Executor, cutoff: number, now: number): Promise<number> {
  return erasePersonalData(db, (q) => q.where('ended_at', '<', cutoff), now);
}

/**
 * Erases the personal data of these entries, open or not (a person's erasure, docs/product.md §9;
 * the caller decides which may go); returns how many.
 */
export function erasePersonalDataOfEntries(db: Executor, ids: readonly string[], now: number): Promise<number> {
  if (ids.length === 0) return Promise.resolve(0);
  return erasePersonalData(db, (q) => q.where('id', 'in', ids), now);
}

type EntryUpdate = UpdateQueryBuilder<Database, 'entries', 'entries', UpdateResult>;

/**
 * What erasing an entry's personal data means, in one place: name, phone, email, note, section and
 * the venue's messages go, with its push subscriptions and its thread's texts; counts and times stay.
 */
async function erasePersonalData(db: Executor, which: (query: EntryUpdate) => EntryUpdate, now: number): Promise<number> {
  const result = await which(
    db
      .updateTable('entries')
      .set({ name: null, phone: null, email: null, note: null, section: null, venue_messages: null, client_key: null, erased_at: now }),
  )
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  // Push subscriptions are personal data too (docs/product.md §8): gone with the entry's.
  // The one statement on another module's table (notifications/push-subscriptions.repository.ts owns
  // push_subscriptions): it goes with the entry's erasure, in the same executor, and notifications
  // imports the queue, never the reverse (docs/ARCHITECTURE.md, Modules), so it is written here.
  await db
    .deleteFrom('push_subscriptions')
    .where('entry_id', 'in', (eb) => eb.selectFrom('entries').select('id').where('erased_at', '=', now))
    .execute();
  // The thread's texts go with the entry's personal data (docs/product.md §7); the times and states stay.
  await eraseTextsOfEntriesErasedAt(db, now);
  return Number(result.numUpdatedRows);
}

/** An entry with the number of waiting parties ahead of it, for a position read. */
export interface PlacedEntryRow extends EntryRow {
  ahead: number;
  /** Parties called and not yet seated at the venue. */
  called: number;
}

/**
 * One round trip for a position read: the entry by its own or its share id, and countWaitingAhead
 * as two subqueries (higher priority; same priority and earlier ticket), each a range of the
 * covering `entries_queue` index, so no OR defeats the index. Written as SQL text: building this
 * query with the query builder on every read cost more than running it.
 */
export async function findPlacedEntry(db: Executor, by: 'id' | 'share_id', value: string): Promise<PlacedEntryRow | undefined> {
  const where = by === 'id' ? sql`e.id = ${value}` : sql`e.share_id = ${value}`;
  const { rows } = await sql<PlacedEntryRow>`
    select e.*,
      (select count(*) from entries w
        where w.venue_id = e.venue_id and w.status = 'active' and w.priority > e.priority)
      + (select count(*) from entries w
        where w.venue_id = e.venue_id and w.status = 'active' and w.priority = e.priority and w.seq < e.seq) as ahead,
      (select count(*) from entries c where c.venue_id = e.venue_id and c.status = 'called') as called
    from entries e where ${where}
  `.execute(db);
  const row = rows[0];
  return row && { ...row, ahead: Number(row.ahead), called: Number(row.called) };
}

/**
 * Ends every entry still waiting or called that joined before `joinedBefore` (the retention job),
 * in one statement: the venue_waiting triggers count each row. Open entries have no `ended_at`, so
 * the `entries_ended` index finds them without reading the finished ones.
 */
export function expireOpenEntriesJoinedBefore(
  db: Executor,
  joinedBefore: number,
  reason: string,
  now: number,
): Promise<Pick<EntryRow, 'id' | 'venue_id'>[]> {
  return db
    .updateTable('entries')
    .set({ status: 'cancelled', cancel_reason: reason, cancelled_at: now, ended_at: now })
    .where('ended_at', 'is', null)
    .where('status', 'in', ['active', 'called'])
    .where('created_at', '<', joinedBefore)
    .returning(['id', 'venue_id'])
    .execute();
}

/** Ends an entry that is still waiting or called; false when it had already ended (a race lost). */
export async function cancelOpenEntry(db: Executor, id: string, reason: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('entries')
    .set({ status: 'cancelled', cancel_reason: reason, cancelled_at: now, ended_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['active', 'called'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a refresh needs of each open entry to place it and to tell whether its message changed. */
export type QueueRow = Pick<
  EntryRow,
  | 'id'
  | 'status'
  | 'priority'
  | 'seq'
  | 'band'
  | 'party_size'
  | 'created_at'
  | 'cancel_reason'
  | 'notified_at'
  | 'seated_at'
  | ConversationStamp
>;

/** What changes a diner's message in the conversation (docs/product.md §7): an answer, the hold window, a message from the venue. */
type ConversationStamp = 'reply_at' | 'hold_until' | 'venue_message_at';

const QUEUE_ROW_COLUMNS = [
  'id',
  'status',
  'priority',
  'seq',
  'band',
  'party_size',
  'created_at',
  'cancel_reason',
  'notified_at',
  'seated_at',
  'reply_at',
  'hold_until',
  'venue_message_at',
] as const;

/**
 * The venue's open entries in queue order, narrow: measured on SQLite with 10,000 open entries,
 * `select *` took several times as long as these columns (the sort carries whole rows).
 */
const queueOrder = compiledOnce<{ venueId: string }, QueueRow>((db, arg) =>
  db
    .selectFrom('entries')
    .select(QUEUE_ROW_COLUMNS)
    .where('venue_id', '=', arg('venueId'))
    .where('status', 'in', ['active', 'called'])
    .orderBy('priority', 'desc')
    .orderBy('seq', 'asc')
    .compile(),
);

export async function listQueueOrder(db: Executor, venueId: string): Promise<QueueRow[]> {
  return (await queueOrder(db, { venueId })).rows;
}

/** Whole rows of some entries (messages to build, entries that left the queue), in chunks. */
const entriesByIds = compiledOnce<ListArgs, EntryRow>(
  (db, arg, args) =>
    db
      .selectFrom('entries')
      .select(ENTRY_COLUMNS)
      .where('id', 'in', listOf(arg as (name: string) => unknown, args.length))
      .compile(),
  lengthOf,
);

export async function findEntriesByIds(db: Executor, ids: readonly string[]): Promise<EntryRow[]> {
  const out: EntryRow[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await entriesByIds(db, listArgs(ids.slice(i, i + 500)))).rows);
  return out;
}

/** The narrow rows of some entries of a venue (the ones venue events name), whatever their status. */
export async function findQueueRowsByIds(db: Executor, venueId: string, ids: readonly string[]): Promise<QueueRow[]> {
  if (ids.length === 0) return [];
  const out: QueueRow[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await venueQueueRowsByIds(db, listArgs(ids.slice(i, i + 500), { venueId }))).rows);
  return out;
}

const venueQueueRowsByIds = compiledOnce<ListArgs, QueueRow>(
  (db, arg, args) =>
    db
      .selectFrom('entries')
      .select(QUEUE_ROW_COLUMNS)
      .where('venue_id', '=', arg('venueId') as string)
      .where('id', 'in', listOf(arg as (name: string) => unknown, args.length))
      .compile(),
  lengthOf,
);

/** Whole rows of these entries of one venue (queue-cache.ts keeps a console's queue whole). */
const venueEntriesByIds = compiledOnce<ListArgs, EntryRow>(
  (db, arg, args) =>
    db
      .selectFrom('entries')
      .select(ENTRY_COLUMNS)
      .where('venue_id', '=', arg('venueId') as string)
      .where('id', 'in', listOf(arg as (name: string) => unknown, args.length))
      .compile(),
  lengthOf,
);

export async function findOpenRowsOfVenueByIds(db: Executor, venueId: string, ids: readonly string[]): Promise<EntryRow[]> {
  if (ids.length === 0) return [];
  const out: EntryRow[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await venueEntriesByIds(db, listArgs(ids.slice(i, i + 500), { venueId }))).rows);
  return out;
}

/**
 * Puts an ended entry back in the queue, only if it is still the ending we saw (no race with a
 * second undo or with retention). Answers whether a row changed.
 */
export async function reopenEntry(db: Executor, entry: EntryRow, status: 'active' | 'called'): Promise<boolean> {
  if (entry.ended_at === null) return false;
  const result = await db
    .updateTable('entries')
    .set({ status, seated_at: null, cancelled_at: null, cancel_reason: null, ended_at: null })
    .where('id', '=', entry.id)
    .where('status', '=', entry.status)
    .where('ended_at', '=', entry.ended_at)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface DayEntryRow {
  status: EntryRow['status'];
  cancel_reason: string | null;
  created_at: number;
  seated_at: number | null;
  cancelled_at: number | null;
  quoted_minutes: number | null;
  quoted_low: number | null;
  quoted_high: number | null;
}

/** Entries of a venue that joined, were seated or ended in [from, to): timings only, no personal data. */
export async function listDayEntries(db: Executor, venueId: string, from: number, to: number): Promise<DayEntryRow[]> {
  const rows = await db
    .selectFrom('entries')
    .select(['status', 'cancel_reason', 'created_at', 'seated_at', 'cancelled_at', 'quoted_minutes', 'quoted_low', 'quoted_high'])
    .where('venue_id', '=', venueId)
    .where((eb) =>
      eb.or([
        eb.and([eb('created_at', '>=', from), eb('created_at', '<', to)]),
        eb.and([eb('seated_at', '>=', from), eb('seated_at', '<', to)]),
        eb.and([eb('cancelled_at', '>=', from), eb('cancelled_at', '<', to)]),
      ]),
    )
    .execute();
  // PostgreSQL bigint may arrive as a string when a driver parser is not set: normalise.
  return rows.map((r) => ({
    status: r.status,
    cancel_reason: r.cancel_reason,
    created_at: Number(r.created_at),
    seated_at: r.seated_at === null ? null : Number(r.seated_at),
    cancelled_at: r.cancelled_at === null ? null : Number(r.cancelled_at),
    quoted_minutes: r.quoted_minutes,
    quoted_low: r.quoted_low,
    quoted_high: r.quoted_high,
  }));
}

// The conversation (docs/product.md §7).

/** Writes a change to an entry only while it is still open; false when it ended meanwhile. */
export async function updateOpenEntry(db: Executor, id: string, patch: EntryPatch): Promise<boolean> {
  const result = await openEntryUpdate(db, { ...patchArgs(id, patch), patch });
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** The sender's most recent open entry, at any venue (an SMS reply names only the phone). */
export function findLatestOpenEntryByPhone(db: Executor, phone: string): Promise<EntryRow | undefined> {
  return db
    .selectFrom('entries')
    .selectAll()
    .where('phone', '=', phone)
    .where('status', 'in', ['active', 'called'])
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The most recent entry of a phone, open or not, for the language of an answer. */
export function findLatestEntryByPhone(db: Executor, phone: string): Promise<EntryRow | undefined> {
  return db.selectFrom('entries').selectAll().where('phone', '=', phone).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}

/** Marks the party's messages read; answers how many were unread. */
export async function markPartyMessagesRead(db: Executor, entryId: string): Promise<number> {
  await markMessagesRead(db, entryId);
  const result = await db.updateTable('entries').set({ unread: 0 }).where('id', '=', entryId).where('unread', '>', 0).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function incrementUnread(db: Executor, entryId: string): Promise<void> {
  await db
    .updateTable('entries')
    .set((eb) => ({ unread: eb('unread', '+', 1) }))
    .where('id', '=', entryId)
    .execute();
}

// Compiled once (db/compiled-once.ts): every join with an SMS sets it (docs/decisions/042-cheaper-joins.md).
const lastMessageUpdate = compiledOnce<{ entryId: string; messageId: string; channel: string | null }>((db, arg) =>
  db
    .updateTable('entries')
    .set({
      last_message_id: arg('messageId'),
      last_message_status: 'queued',
      last_message_channel: arg('channel'),
      last_message_fallback: null,
    })
    .where('id', '=', arg('entryId'))
    .compile(),
);

/** The message sent last to an entry: its card shows the delivery. */
export async function setLastMessage(db: Executor, entryId: string, messageId: string, channel: string | null = null): Promise<void> {
  await lastMessageUpdate(db, { entryId, messageId, channel });
}

/**
 * A WhatsApp message went again by SMS (docs/product.md §10): the entries whose last message it was,
 * and the thread's copy, now follow the SMS and remember that WhatsApp failed first.
 */
export async function pointAtFallback(db: Executor, whatsappId: string, smsId: string): Promise<Pick<EntryRow, 'id' | 'venue_id'>[]> {
  await pointThreadAtFallback(db, whatsappId, smsId);
  return db
    .updateTable('entries')
    .set({ last_message_id: smsId, last_message_status: 'queued', last_message_channel: 'sms', last_message_fallback: 'whatsapp' })
    .where('last_message_id', '=', whatsappId)
    .returning(['id', 'venue_id'])
    .execute();
}

/** The party wrote on WhatsApp: the 24-hour window for free text opens again from now (docs/product.md §10). */
export async function setWhatsAppInbound(db: Executor, entryId: string, at: number): Promise<void> {
  await db.updateTable('entries').set({ whatsapp_inbound_at: at }).where('id', '=', entryId).execute();
}

const deliveryUpdate = compiledOnce<ListArgs, Pick<EntryRow, 'id' | 'venue_id'>>(
  (db, arg, args) =>
    db
      .updateTable('entries')
      .set({ last_message_status: arg('status') as string })
      .where('last_message_id', 'in', listOf(arg as (name: string) => unknown, args.length))
      // The states it may replace are few and fixed per caller: part of the statement's shape.
      .where('last_message_status', 'in', args.earlier as string[])
      .returning(['id', 'venue_id'])
      .compile(),
  (args) => `${args.length}|${(args.earlier as string[]).join(',')}`,
);

/**
 * A delivery report for a message: the entries whose last message it is, and the thread's copy,
 * take the new state unless they already hold a later one (callbacks may arrive out of order).
 */
export async function recordDeliveryOf(
  db: Executor,
  messageIds: readonly string[],
  status: string,
  earlier: readonly string[],
): Promise<Pick<EntryRow, 'id' | 'venue_id'>[]> {
  const changed: Pick<EntryRow, 'id' | 'venue_id'>[] = [];
  for (let i = 0; i < messageIds.length; i += 500) {
    const ids = messageIds.slice(i, i + 500);
    await recordMessageStatus(db, ids, status, earlier);
    changed.push(...(await deliveryUpdate(db, listArgs(ids, { status, earlier: [...earlier] }))).rows);
  }
  return changed;
}

// Calls that end well (docs/product.md §8).

/** Called parties whose hold window ran out before `now`. */
export function findHoldsOverBefore(db: Executor, now: number): Promise<EntryRow[]> {
  return db.selectFrom('entries').selectAll().where('status', '=', 'called').where('hold_until', '<', now).execute();
}

/**
 * Marks a called party NoShow if its window is still over: one statement, so of several instances
 * running the check at once exactly one changes the row (and tells the party).
 */
export async function endHoldIfOver(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('entries')
    .set({ status: 'cancelled', cancel_reason: 'NoShow', cancelled_at: now, ended_at: now })
    .where('id', '=', id)
    .where('status', '=', 'called')
    .where('hold_until', '<', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What the getting-close check reads of a party at the front (getting-close.service.ts): its place and whether it was told. */
export const FRONT_COLUMNS = ['id', 'status', 'band', 'priority', 'seq', 'created_at', 'getting_close_at', 'notified_at'] as const;
export type FrontRow = Pick<EntryRow, (typeof FRONT_COLUMNS)[number]>;

// The front in one statement (PostgreSQL), compiled once: a named statement there (db/pg-named.ts).
const frontInOrder = compiledOnce<{ venueId: string; limit: number }, FrontRow>((db, arg) =>
  db
    .selectFrom('entries')
    .select(FRONT_COLUMNS)
    .where('venue_id', '=', arg('venueId'))
    .where('status', '=', 'active')
    .orderBy('priority', 'desc')
    .orderBy('seq', 'asc')
    .limit(arg('limit'))
    .compile(),
);

/**
 * The first `limit` waiting parties of a venue, in queue order, with the front's columns only
 * (better-sqlite3 makes a row's object a column at a time: three whole rows of `entries` cost
 * about four times these eight columns, docs/decisions/060-the-front-read-narrow.md). `bySeek`
 * (SQLite): its queue index (venue_id, status, priority, seq) gives `seq` ascending within one
 * priority but not `priority desc, seq asc` at once, so the one query sorts every waiting party of
 * a priority to keep a few. Instead, per priority from the highest (a seek for it), the first
 * parties in index order (docs/decisions/040-hub-keeps-whole-rows.md).
 */
export async function firstWaiting(db: Executor, venueId: string, limit: number, bySeek = false): Promise<FrontRow[]> {
  if (!bySeek) return (await frontInOrder(db, { venueId, limit })).rows;
  const out: FrontRow[] = [];
  let below: number | undefined;
  while (out.length < limit) {
    const found = (below === undefined ? await topPriority(db, { venueId }) : await topPriorityBelow(db, { venueId, below })).rows[0]?.p;
    if (found === null || found === undefined) break;
    const priority = Number(found);
    out.push(...(await waitingOfPriority(db, { venueId, priority, limit: limit - out.length })).rows);
    below = priority;
  }
  return out;
}

const topPriority = compiledOnce<{ venueId: string }, { p: number | null }>((db, arg) =>
  db
    .selectFrom('entries')
    .select((eb) => eb.fn.max('priority').as('p'))
    .where('venue_id', '=', arg('venueId'))
    .where('status', '=', 'active')
    .compile(),
);
const topPriorityBelow = compiledOnce<{ venueId: string; below: number }, { p: number | null }>((db, arg) =>
  db
    .selectFrom('entries')
    .select((eb) => eb.fn.max('priority').as('p'))
    .where('venue_id', '=', arg('venueId'))
    .where('status', '=', 'active')
    .where('priority', '<', arg('below'))
    .compile(),
);
// One statement per count (a few: up to the venue's getting-close places), the count written in (db/sqlite-dialect.ts).
const waitingOfPriority = compiledOnce<{ venueId: string; priority: number; limit: number }, FrontRow>(
  (db, arg, { limit }) =>
    db
      .selectFrom('entries')
      .select(FRONT_COLUMNS)
      .where('venue_id', '=', arg('venueId'))
      .where('status', '=', 'active')
      .where('priority', '=', arg('priority'))
      .orderBy('seq', 'asc')
      .limit(limit)
      .compile(),
  ({ limit }) => String(limit),
);

/**
 * Claims an entry's one "getting close" message: the whole row as claimed (for the message: the
 * front was read narrow), or undefined when it was had already. One statement, not the claim and a
 * read of the row (docs/decisions/065-outbox-claimed-when-something-waits.md).
 */
const gettingCloseClaim = compiledOnce<{ id: string; now: number }, EntryRow>((db, arg) =>
  db
    .updateTable('entries')
    .set({ getting_close_at: arg('now') })
    .where('id', '=', arg('id'))
    .where('status', '=', 'active')
    .where('getting_close_at', 'is', null)
    .where('notified_at', 'is', null)
    .returning(ENTRY_COLUMNS)
    .compile(),
);

export async function claimGettingClose(db: Executor, id: string, now: number): Promise<EntryRow | undefined> {
  return (await gettingCloseClaim(db, { id, now })).rows[0];
}
