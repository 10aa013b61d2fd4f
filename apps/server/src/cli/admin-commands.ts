import { parseArgs } from 'node:util';
import { VenueName, defaultVenueSettings } from '@vez/contract';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { AppError } from '../lib/app-error.js';
import { newVenueId } from '../lib/ids.js';
import { parseInput } from '../lib/validate.js';
import {
  type TellStaffNews,
  addStaffVenueByEmail,
  createStaff,
  endStaffSessions,
  removeStaff,
  setStaffPassword,
} from '../modules/staff/staff.service.js';
import { twilioSignature } from '../modules/notifications/twilio-signature.js';
import { findVenueBySlug, insertVenue, listVenueNames } from '../modules/venues/venues.repository.js';
import { dataCommands, dataUsage } from './admin-data.js';

export interface AdminIo {
  db: Db;
  out(line: string): void;
  err(line: string): void;
  /** Reads a secret (a password) from standard input: never from the command line (docs/product.md §9). */
  prompt(question: string): Promise<string>;
  now?: () => number;
  /** Where the store is (DATABASE_URL): backup and restore copy its file (docs/decisions/024-backups-and-personal-data.md). */
  database?: Config['database'];
  /**
   * Tells the running instances that sessions ended (through Redis when REDIS_URL is set), so the
   * consoles of those sessions close at once (docs/security.md, "Staff sessions end everywhere").
   */
  tellStaffNews?: TellStaffNews;
}

const tellOf = (io: AdminIo): TellStaffNews => io.tellStaffNews ?? (() => {});

export const usage = `Usage: npm run admin -- <command> [options]

  create-venue --name-pt <name> [--name-en <name>] --slug <slug> [--city <c>] [--neighborhood <n>] [--max-party-size <n>]
      creates a venue (waitlist open) and prints its id
  create-staff --email <email> [--venue <venueId>]... [--role owner|host]
      creates a staff account bound to the venues as owner (default) or host, its password read from
      standard input; prints its id
  add-staff-venue --email <email> --venue <venueId>
      lets an existing staff account run one more venue
  staff:password <email>
      sets a new password, read from standard input, and ends that account's sessions
  staff:logout <email>
      ends every session of that account (it must log in again)
  staff:remove <email>
      removes the account: its sessions end and it runs no venue any more
  list-venues
      prints id, slug and name of every venue
  sms-reply --from <phone> --body <text> [--url <server>]
      sends an SMS reply to a running server as Twilio would (docs/product.md §7): "1", "9", "PARAR", or
      any text; signed with SMS_AUTH_TOKEN when it is set. --url defaults to PUBLIC_BASE_URL or
      http://localhost:3000. Prints the server's answer.
${dataUsage}

Passwords are read from standard input only (typed, or piped: printf '%s\n' "$PW" | npm run admin -- …),
never from the command line, where other users' ps and the shell history would see them.
DATABASE_URL chooses the store, as for the server (default: SQLite data/vez.db).`;

const SLUG = /^[a-z0-9-]{2,60}$/;

async function createVenue(io: AdminIo, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      'name-pt': { type: 'string' },
      'name-en': { type: 'string' },
      slug: { type: 'string' },
      city: { type: 'string' },
      neighborhood: { type: 'string' },
      'max-party-size': { type: 'string' },
    },
  });
  const name = parseInput(VenueName, { pt: values['name-pt'], ...(values['name-en'] ? { en: values['name-en'] } : {}) });
  const slug = values.slug ?? '';
  if (!SLUG.test(slug)) throw new Error('--slug must be 2-60 characters of a-z, 0-9 and -.');
  if (await findVenueBySlug(io.db.kysely, slug)) throw new Error(`The slug ${slug} is already used.`);
  const maxPartySize = Number(values['max-party-size'] ?? 8);
  if (!Number.isInteger(maxPartySize) || maxPartySize < 1 || maxPartySize > 50) throw new Error('--max-party-size must be 1 to 50.');
  const now = (io.now ?? Date.now)();
  const id = newVenueId();
  await insertVenue(io.db.kysely, {
    id,
    slug,
    name_pt: name.pt,
    name_en: name.en ?? null,
    name_fr: null,
    name_es: null,
    city: values.city ?? '',
    neighborhood: values.neighborhood ?? '',
    has_menu: 0,
    login_journey: 0,
    max_party_size: maxPartySize,
    sections: '[]',
    settings: JSON.stringify(defaultVenueSettings),
    theme: '{}',
    waitlist_active: 1,
    waitlist_locked: 0,
    next_seq: 1,
    created_at: now,
    updated_at: now,
  });
  io.out(id);
}

async function createStaffCommand(io: AdminIo, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, venue: { type: 'string', multiple: true }, role: { type: 'string', default: 'owner' } },
  });
  if (!values.email) throw new Error('--email is required.');
  // docs/decisions/023-staff-roles.md: owners edit the venue and its team, hosts run the queue.
  const role = values.role === 'host' ? 'host' : values.role === 'owner' ? 'owner' : undefined;
  if (!role) throw new Error('--role must be owner or host.');
  const password = await io.prompt(`Password for ${values.email}: `);
  const id = await createStaff(io.db.kysely, { email: values.email, password, venueIds: values.venue ?? [], role }, (io.now ?? Date.now)());
  io.out(id);
}

async function addStaffVenue(io: AdminIo, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, venue: { type: 'string' } } });
  if (!values.email || !values.venue) throw new Error('--email and --venue are required.');
  await addStaffVenueByEmail(io.db.kysely, values.email, values.venue);
  io.out(`${values.email.trim().toLowerCase()} now runs ${values.venue}`);
}

/** The one email a staff:* command acts on: `<email>` or `--email <email>`. */
function emailArgument(args: string[]): string {
  const { values, positionals } = parseArgs({ args, options: { email: { type: 'string' } }, allowPositionals: true });
  const emails = [...positionals, ...(values.email ? [values.email] : [])];
  if (emails.length !== 1) throw new Error('Name exactly one staff email.');
  return emails[0]!;
}

async function setPasswordCommand(io: AdminIo, args: string[]): Promise<void> {
  const email = emailArgument(args);
  await setStaffPassword(io.db.kysely, email, await io.prompt(`New password for ${email}: `), tellOf(io));
  io.out(`${email.trim().toLowerCase()}: password changed, every session ended`);
}

async function logoutCommand(io: AdminIo, args: string[]): Promise<void> {
  const email = emailArgument(args);
  const ended = await endStaffSessions(io.db.kysely, email, tellOf(io));
  io.out(`${email.trim().toLowerCase()}: ${ended} session(s) ended`);
}

async function removeCommand(io: AdminIo, args: string[]): Promise<void> {
  const email = emailArgument(args);
  await removeStaff(io.db.kysely, email, tellOf(io));
  io.out(`${email.trim().toLowerCase()}: removed, every session ended`);
}

/** A password on the command line shows in `ps` and the shell history: refused, whatever the command. */
const isPasswordArgument = (arg: string): boolean => /^--?(password|pass|pw)(=|$)/i.test(arg);

async function listVenues(io: AdminIo): Promise<void> {
  const rows = await listVenueNames(io.db.kysely);
  for (const row of rows) io.out(`${row.id}  ${row.slug}  ${row.name_pt}`);
}

/** An SMS reply as Twilio posts it, to a running server: the demo's way to try the conversation. */
async function smsReply(io: AdminIo, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values } = parseArgs({ args, options: { from: { type: 'string' }, body: { type: 'string' }, url: { type: 'string' } } });
  if (!values.from || values.body === undefined) throw new Error('Give --from <phone, E.164 like +5511987650001> and --body <text>.');
  const base = (values.url ?? env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, '');
  const url = `${base}/api/sms/inbound`;
  const params = { From: values.from, To: env.SMS_FROM ?? '', Body: values.body, MessageSid: `SMadmin${Date.now()}` };
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (env.SMS_AUTH_TOKEN) headers['x-twilio-signature'] = twilioSignature(env.SMS_AUTH_TOKEN, url, params);
  const response = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(params) });
  const text = await response.text();
  if (!response.ok) throw new Error(`the server answered ${response.status}: ${text}`);
  io.out(/<Message>([\s\S]*)<\/Message>/.exec(text)?.[1] ?? '(no answer)');
}

/** Runs one admin command; returns the process exit code (0 ok, 1 refused, 64 usage). */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const [command, ...args] = argv;
  const commands: Record<string, () => Promise<void>> = {
    'create-venue': () => createVenue(io, args),
    'create-staff': () => createStaffCommand(io, args),
    'add-staff-venue': () => addStaffVenue(io, args),
    'staff:password': () => setPasswordCommand(io, args),
    'staff:logout': () => logoutCommand(io, args),
    'staff:remove': () => removeCommand(io, args),
    'list-venues': () => listVenues(io),
    'sms-reply': () => smsReply(io, args, process.env),
    ...dataCommands(io, args),
  };
  const run = command ? commands[command] : undefined;
  if (!run) {
    io.err(usage);
    return command === 'help' || command === '--help' ? 0 : 64;
  }
  if (args.some(isPasswordArgument)) {
    io.err(
      `admin ${command}: passwords are read from standard input only, never from the command line (it shows in ps and the shell history).`,
    );
    return 64;
  }
  try {
    await run();
    return 0;
  } catch (error) {
    const message =
      error instanceof AppError
        ? `${error.message}${error.field ? ` (${error.field})` : ''}`
        : error instanceof Error
          ? error.message
          : String(error);
    io.err(`admin ${command}: ${message}`);
    return 1;
  }
}
