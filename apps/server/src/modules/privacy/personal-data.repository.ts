import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/**
 * Where a person's data lives, table by table (docs/product.md §9, docs/decisions/024): this module
 * reads every table that holds a phone or an email, on purpose, so one place knows them all.
 * Erasing an entry's own fields stays the queue's (retention's rule).
 */

type Executor = Kysely<Database>;

/** A person's identifiers: E.164 phones and lower-cased emails. */
export interface PersonKeys {
  phones: string[];
  emails: string[];
}

/** SMS go to a phone or to its WhatsApp address. */
const smsAddresses = (phones: string[]) => phones.flatMap((p) => [p, `whatsapp:${p}`]);

const none = <T>(): Promise<T[]> => Promise.resolve([]);

export function findEntries(db: Executor, keys: PersonKeys) {
  if (keys.phones.length + keys.emails.length === 0) return none<never>();
  return db
    .selectFrom('entries')
    .select([
      'id',
      'venue_id',
      'status',
      'party_size',
      'name',
      'phone',
      'email',
      'note',
      'section',
      'venue_messages',
      'lang',
      'created_at',
      'ended_at',
    ])
    .where((eb) =>
      eb.or([
        ...(keys.phones.length ? [eb('phone', 'in', keys.phones)] : []),
        ...(keys.emails.length ? [eb(eb.fn('lower', ['email']), 'in', keys.emails)] : []),
      ]),
    )
    .orderBy('created_at')
    .execute();
}

export function findEntryMessages(db: Executor, entryIds: string[]) {
  if (entryIds.length === 0) return none<never>();
  return db
    .selectFrom('entry_messages')
    .select(['id', 'entry_id', 'direction', 'text', 'status', 'created_at'])
    .where('entry_id', 'in', entryIds)
    .orderBy('created_at')
    .execute();
}

export function findPushSubscriptions(db: Executor, entryIds: string[]) {
  if (entryIds.length === 0) return none<never>();
  return db
    .selectFrom('push_subscriptions')
    .select(['id', 'entry_id', 'endpoint', 'created_at'])
    .where('entry_id', 'in', entryIds)
    .execute();
}

/** The outbox's rows to the person, or about their entries; a code or login link only masked. */
export function findMessages(db: Executor, keys: PersonKeys, entryIds: string[]) {
  const to = (eb: ExpressionBuilder<Database, 'messages'>) =>
    eb.or([
      ...(keys.phones.length ? [eb.and([eb('channel', '=', 'sms'), eb('recipient', 'in', smsAddresses(keys.phones))])] : []),
      ...(keys.emails.length ? [eb.and([eb('channel', '=', 'email'), eb(eb.fn('lower', ['recipient']), 'in', keys.emails)])] : []),
      ...(entryIds.length ? [eb('entry_id', 'in', entryIds), eb.and([eb('channel', '=', 'push'), eb('recipient', 'in', entryIds)])] : []),
    ]);
  if (keys.phones.length + keys.emails.length + entryIds.length === 0) return none<never>();
  return db
    .selectFrom('messages')
    .select((eb) => [
      'id',
      'channel',
      'recipient',
      'subject',
      eb.fn.coalesce('safe_body', 'body').as('body'),
      'status',
      'entry_id',
      'created_at',
      'sent_at',
    ])
    .where(to)
    .orderBy('created_at')
    .execute();
}

/** Accounts that hold one of the person's phones or emails, verified or not (the caller tells them apart). */
export function findProductUsers(db: Executor, keys: PersonKeys) {
  if (keys.phones.length + keys.emails.length === 0) return none<never>();
  return db
    .selectFrom('product_users')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...(keys.phones.length ? [eb('phone', 'in', keys.phones)] : []),
        ...(keys.emails.length ? [eb(eb.fn('lower', ['email']), 'in', keys.emails)] : []),
      ]),
    )
    .orderBy('created_at')
    .execute();
}

export function findUserSessions(db: Executor, userIds: string[]) {
  if (userIds.length === 0) return none<never>();
  return db.selectFrom('user_sessions').select(['user_id', 'created_at', 'expires_at']).where('user_id', 'in', userIds).execute();
}

export function findPassports(db: Executor, userIds: string[], entryIds: string[]) {
  if (userIds.length + entryIds.length === 0) return none<never>();
  return db
    .selectFrom('passports')
    .select(['token_hash', 'user_id', 'entry_id', 'created_at', 'expires_at', 'used_at'])
    .where((eb) =>
      eb.or([...(userIds.length ? [eb('user_id', 'in', userIds)] : []), ...(entryIds.length ? [eb('entry_id', 'in', entryIds)] : [])]),
    )
    .execute();
}

/**
 * User events of the person's accounts, and any account's events about the person's entries or
 * carrying their phone or email in the recorded join payload (another account may have joined them).
 */
export function findUserEvents(db: Executor, userIds: string[], entryIds: string[], keys: PersonKeys) {
  if (userIds.length + entryIds.length + keys.phones.length + keys.emails.length === 0) return none<never>();
  return db
    .selectFrom('user_events')
    .select(['id', 'user_id', 'venue_id', 'event_type', 'event_body', 'waitlist_id', 'created_at'])
    .where((eb) =>
      eb.or([
        ...(userIds.length ? [eb('user_id', 'in', userIds)] : []),
        ...(entryIds.length ? [eb('waitlist_id', 'in', entryIds)] : []),
        ...keys.phones.map((phone) => eb('event_body', 'like', `%${likeText(phone)}%`)),
        ...keys.emails.map((email) => eb(eb.fn('lower', ['event_body']), 'like', `%${likeText(email)}%`)),
      ]),
    )
    .orderBy('created_at')
    .execute();
}

/** A text inside LIKE: a `%` or `_` in it (an email may hold them) matches that one character, never a run of text. */
const likeText = (text: string) => text.replace(/[%_]/g, '_');

export async function deleteUserEvents(db: Executor, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('user_events').where('id', 'in', ids).execute();
}

/** One-time codes sent to the person: their targets and times, never their hashes. */
export function findOneTimeCodes(db: Executor, keys: PersonKeys) {
  if (keys.phones.length + keys.emails.length === 0) return none<never>();
  return db
    .selectFrom('one_time_codes')
    .select(['id', 'channel', 'target', 'venue_id', 'created_at', 'expires_at', 'used_at'])
    .where((eb) =>
      eb.or([
        ...(keys.phones.length ? [eb.and([eb('channel', '=', 'sms'), eb('target', 'in', keys.phones)])] : []),
        ...(keys.emails.length ? [eb.and([eb('channel', '=', 'email'), eb(eb.fn('lower', ['target']), 'in', keys.emails)])] : []),
      ]),
    )
    .execute();
}

export function findSmsOptOuts(db: Executor, phones: string[]) {
  if (phones.length === 0) return none<never>();
  return db.selectFrom('sms_opt_outs').selectAll().where('phone', 'in', phones).execute();
}

/** Staff accounts with the email, their venues and how many sessions they have; never the password hash. */
export async function findStaff(db: Executor, emails: string[]) {
  if (emails.length === 0) return [];
  const staff = await db
    .selectFrom('staff')
    .select(['id', 'email', 'created_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), 'in', emails))
    .execute();
  if (staff.length === 0) return [];
  const ids = staff.map((s) => s.id);
  const venues = await db.selectFrom('staff_venues').selectAll().where('staff_id', 'in', ids).execute();
  const sessions = await db
    .selectFrom('staff_sessions')
    .select(['staff_id', 'created_at', 'expires_at'])
    .where('staff_id', 'in', ids)
    .execute();
  return staff.map((s) => ({
    ...s,
    venues: venues.filter((v) => v.staff_id === s.id).map(({ staff_id: _, ...v }) => v),
    sessions: sessions.filter((v) => v.staff_id === s.id).map(({ staff_id: _, ...v }) => v),
  }));
}

/** Invitations to a venue's team sent to the email; never the token's hash. */
export function findStaffInvites(db: Executor, emails: string[]) {
  if (emails.length === 0) return none<never>();
  return db
    .selectFrom('staff_invites')
    .select(['id', 'venue_id', 'email', 'role', 'created_at', 'expires_at', 'used_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), 'in', emails))
    .execute();
}

// Erasure: the caller runs these in one transaction.

export async function deleteMessages(db: Executor, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('messages').where('id', 'in', ids).execute();
}

export async function deleteOneTimeCodes(db: Executor, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('one_time_codes').where('id', 'in', ids).execute();
}

export async function deletePassports(db: Executor, tokenHashes: string[]): Promise<void> {
  if (tokenHashes.length) await db.deleteFrom('passports').where('token_hash', 'in', tokenHashes).execute();
}

/** The accounts with their sessions, passports and events (explicitly: not every store enforces the cascade). */
export async function deleteProductUsers(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('user_sessions').where('user_id', 'in', ids).execute();
  await db.deleteFrom('passports').where('user_id', 'in', ids).execute();
  await db.deleteFrom('user_events').where('user_id', 'in', ids).execute();
  await db.deleteFrom('product_users').where('id', 'in', ids).execute();
}

/** Takes a phone or email the person never verified off another account (contact data only, docs/product.md §3). */
export async function removeUnverifiedContacts(db: Executor, keys: PersonKeys, now: number): Promise<void> {
  if (keys.phones.length) {
    await db
      .updateTable('product_users')
      .set({ phone: null, phone_verified_at: null, updated_at: now })
      .where('phone', 'in', keys.phones)
      .where('phone_verified_at', 'is', null)
      .execute();
  }
  if (keys.emails.length) {
    await db
      .updateTable('product_users')
      .set({ email: null, email_verified_at: null, updated_at: now })
      .where((eb) => eb(eb.fn('lower', ['email']), 'in', keys.emails))
      .where('email_verified_at', 'is', null)
      .execute();
  }
}

/** Staff accounts as `staff:remove` removes them: sessions and venues first, then the account. */
export async function deleteStaff(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('staff_sessions').where('staff_id', 'in', ids).execute();
  await db.deleteFrom('staff_venues').where('staff_id', 'in', ids).execute();
  await db.updateTable('staff_invites').set({ created_by: null }).where('created_by', 'in', ids).execute();
  await db.deleteFrom('staff').where('id', 'in', ids).execute();
}

export async function deleteStaffInvites(db: Executor, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('staff_invites').where('id', 'in', ids).execute();
}

/** The venues among these that have no owner left (an erased staff account may have been the last). */
export async function venuesWithoutOwner(db: Executor, venueIds: string[]): Promise<string[]> {
  if (venueIds.length === 0) return [];
  const owned = await db
    .selectFrom('staff_venues')
    .select('venue_id')
    .where('venue_id', 'in', venueIds)
    .where('role', '=', 'owner')
    .execute();
  const withOwner = new Set(owned.map((row) => row.venue_id));
  return [...new Set(venueIds)].filter((id) => !withOwner.has(id));
}
