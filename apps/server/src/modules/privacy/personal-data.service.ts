import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/types.js';
import { inTransaction } from '../../db/transaction.js';
import { toE164 } from '../../lib/phone.js';
import { OPEN_STATES, erasePersonalDataOfEntries } from '../queue/index.js';
import * as repo from './personal-data.repository.js';

/**
 * A person's rights under Brazilian data protection law (docs/product.md §9,
 * docs/decisions/024-backups-and-personal-data.md): everything held about a phone or an email,
 * to list, hand over and erase.
 */

type Executor = Kysely<Database>;

export class PersonInputError extends Error {}

/** The identifiers as the app stores them: phones in E.164 (Brazil by default), emails lower-cased. */
export function personKeys(input: { phone?: string | undefined; email?: string | undefined }): repo.PersonKeys {
  if (!input.phone && !input.email) throw new PersonInputError('Name the person: --phone <phone> or --email <email>.');
  const phones: string[] = [];
  const emails: string[] = [];
  if (input.phone) {
    const phone = toE164(input.phone);
    if (!phone) throw new PersonInputError(`"${input.phone}" is not a valid phone number (international, or Brazilian by default).`);
    phones.push(phone);
  }
  if (input.email) {
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new PersonInputError(`"${input.email}" is not an email address.`);
    emails.push(email);
  }
  return { phones, emails };
}

type Row<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>[number];

type UserRow = Row<typeof repo.findProductUsers>;

/** An account the person proved is theirs: one of the keys matches a verified contact. */
const isOwnAccount = (user: UserRow, keys: repo.PersonKeys) =>
  (user.phone !== null && user.phone_verified_at !== null && keys.phones.includes(user.phone)) ||
  (user.email !== null && user.email_verified_at !== null && keys.emails.includes(user.email.toLowerCase()));

export interface PersonalData {
  keys: repo.PersonKeys;
  entries: Row<typeof repo.findEntries>[];
  entryMessages: Row<typeof repo.findEntryMessages>[];
  pushSubscriptions: Row<typeof repo.findPushSubscriptions>[];
  messages: Row<typeof repo.findMessages>[];
  /** The person's own accounts (a verified contact matches), whole. */
  accounts: UserRow[];
  /**
   * The person's phone or email typed, unverified, on someone else's account: only that contact
   * is theirs (docs/product.md §3), so only it is shown and erased.
   */
  contactsOnOtherAccounts: { accountId: string; phone?: string; email?: string }[];
  userSessions: Row<typeof repo.findUserSessions>[];
  passports: Omit<Row<typeof repo.findPassports>, 'token_hash'>[];
  userEvents: Row<typeof repo.findUserEvents>[];
  oneTimeCodes: Row<typeof repo.findOneTimeCodes>[];
  smsOptOuts: Row<typeof repo.findSmsOptOuts>[];
  staffAccounts: Awaited<ReturnType<typeof repo.findStaff>>;
  staffInvites: Row<typeof repo.findStaffInvites>[];
  /** Internal: what erasure deletes by key. */
  passportHashes: string[];
}

/**
 * Everything held about the person. An account the person verified brings its other verified
 * contacts along (the same person's email when asked by phone, and the reverse).
 */
export async function findPersonalData(db: Executor, asked: repo.PersonKeys): Promise<PersonalData> {
  const matched = await repo.findProductUsers(db, asked);
  const own = matched.filter((u) => isOwnAccount(u, asked));
  const keys: repo.PersonKeys = {
    phones: unique([...asked.phones, ...own.flatMap((u) => (u.phone && u.phone_verified_at !== null ? [u.phone] : []))]),
    emails: unique([...asked.emails, ...own.flatMap((u) => (u.email && u.email_verified_at !== null ? [u.email.toLowerCase()] : []))]),
  };
  const widened = keys.phones.length !== asked.phones.length || keys.emails.length !== asked.emails.length;
  const users = widened ? await repo.findProductUsers(db, keys) : matched;
  const accounts = users.filter((u) => isOwnAccount(u, keys));
  const accountIds = accounts.map((u) => u.id);
  const others = users.filter((u) => !accountIds.includes(u.id));
  const entries = await repo.findEntries(db, keys);
  const entryIds = entries.map((e) => e.id);
  const passports = await repo.findPassports(db, accountIds, entryIds);
  return {
    keys,
    entries,
    entryMessages: await repo.findEntryMessages(db, entryIds),
    pushSubscriptions: await repo.findPushSubscriptions(db, entryIds),
    messages: await repo.findMessages(db, keys, entryIds),
    accounts,
    contactsOnOtherAccounts: others.map((u) => ({
      accountId: u.id,
      ...(u.phone && keys.phones.includes(u.phone) ? { phone: u.phone } : {}),
      ...(u.email && keys.emails.includes(u.email.toLowerCase()) ? { email: u.email } : {}),
    })),
    userSessions: await repo.findUserSessions(db, accountIds),
    passports: passports.map(({ token_hash: _, ...p }) => p),
    passportHashes: passports.map((p) => p.token_hash),
    userEvents: await repo.findUserEvents(db, accountIds, entryIds, keys),
    oneTimeCodes: await repo.findOneTimeCodes(db, keys),
    smsOptOuts: await repo.findSmsOptOuts(db, keys.phones),
    staffAccounts: await repo.findStaff(db, keys.emails),
    staffInvites: await repo.findStaffInvites(db, keys.emails),
  };
}

const unique = (values: string[]) => [...new Set(values)];

/** Rows per table, for a summary. `sms_opt_outs` is kept by an erasure (see `erasePerson`). */
export function countPersonalData(data: PersonalData): Record<string, number> {
  return {
    entries: data.entries.length,
    entry_messages: data.entryMessages.filter((m) => m.text !== null).length,
    push_subscriptions: data.pushSubscriptions.length,
    messages: data.messages.length,
    product_users: data.accounts.length,
    'product_users (contact only)': data.contactsOnOtherAccounts.length,
    user_sessions: data.userSessions.length,
    passports: data.passports.length,
    user_events: data.userEvents.length,
    one_time_codes: data.oneTimeCodes.length,
    staff: data.staffAccounts.length,
    staff_invites: data.staffInvites.length,
    sms_opt_outs: data.smsOptOuts.length,
  };
}

/** The entries still waiting or called: their venue must end them before they can be erased. */
export const openEntriesOf = (data: PersonalData) => data.entries.filter((e) => (OPEN_STATES as readonly string[]).includes(e.status));

export class OpenEntriesError extends Error {}

/**
 * Erases everything found, in one transaction: entries lose their personal fields as retention
 * does (counts and times stay), rows that are only personal data are deleted. A STOP (sms_opt_outs)
 * is kept: it is what keeps the phone from being texted again (docs/decisions/024). Refuses while
 * an entry is still open: the venue is serving that party.
 */
export async function erasePerson(
  db: Db,
  keys: repo.PersonKeys,
  now: number,
): Promise<{ erased: PersonalData; venuesWithoutOwner: string[] }> {
  return inTransaction(db.kysely, async (trx) => {
    const data = await findPersonalData(trx, keys);
    const open = openEntriesOf(data);
    if (open.length > 0) {
      throw new OpenEntriesError(
        `${open.length} entry(ies) still open at venue(s) ${unique(open.map((e) => e.venue_id)).join(', ')}: ` +
          'the venue seats or removes the party first (or RETENTION_OPEN_MAX_HOURS ends it); nothing was erased.',
      );
    }
    await erasePersonalDataOfEntries(
      trx,
      data.entries.map((e) => e.id),
      now,
    );
    await repo.deleteMessages(
      trx,
      data.messages.map((m) => m.id),
    );
    await repo.deleteOneTimeCodes(
      trx,
      data.oneTimeCodes.map((c) => c.id),
    );
    await repo.deletePassports(trx, data.passportHashes);
    await repo.deleteUserEvents(
      trx,
      data.userEvents.map((e) => e.id),
    );
    await repo.deleteProductUsers(
      trx,
      data.accounts.map((u) => u.id),
    );
    await repo.removeUnverifiedContacts(trx, data.keys, now);
    await repo.deleteStaffInvites(
      trx,
      data.staffInvites.map((i) => i.id),
    );
    await repo.deleteStaff(
      trx,
      data.staffAccounts.map((s) => s.id),
    );
    // Like staff:remove, the operator's erasure may take a venue's last owner (docs/decisions/024): say which.
    const owned = data.staffAccounts.flatMap((s) => s.venues.filter((v) => v.role === 'owner').map((v) => v.venue_id));
    return { erased: data, venuesWithoutOwner: await repo.venuesWithoutOwner(trx, owned) };
  });
}
