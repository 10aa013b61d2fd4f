import { parseArgs } from 'node:util';
import { VenueName, defaultVenueSettings } from '@vez/contract';
import type { Db } from '../db/connect.js';
import { AppError } from '../lib/app-error.js';
import { newVenueId } from '../lib/ids.js';
import { parseInput } from '../lib/validate.js';
import { addStaffVenueByEmail, createStaff } from '../modules/staff/staff.service.js';
import { findVenueBySlug, insertVenue } from '../modules/venues/venues.repository.js';

export interface AdminIo {
  db: Db;
  out(line: string): void;
  err(line: string): void;
  /** Asks for a secret (the password) when it was not given on the command line. */
  prompt(question: string): Promise<string>;
  now?: () => number;
}

export const usage = `Usage: npm run admin -- <command> [options]

  create-venue --name-pt <name> [--name-en <name>] --slug <slug> [--city <c>] [--neighborhood <n>] [--max-party-size <n>]
      creates a venue (waitlist open) and prints its id
  create-staff --email <email> [--password <pw>] [--venue <venueId>]...
      creates a staff account (asks for the password when not given) bound to the venues; prints its id
  add-staff-venue --email <email> --venue <venueId>
      lets an existing staff account run one more venue
  list-venues
      prints id, slug and name of every venue

DATABASE_URL chooses the store, as for the server (default: SQLite data/vez.db).`;

const SLUG = /^[a-z0-9-]{2,60}$/;

async function createVenue(io: AdminIo, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { 'name-pt': { type: 'string' }, 'name-en': { type: 'string' }, slug: { type: 'string' }, city: { type: 'string' }, neighborhood: { type: 'string' }, 'max-party-size': { type: 'string' } },
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
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, password: { type: 'string' }, venue: { type: 'string', multiple: true } } });
  if (!values.email) throw new Error('--email is required.');
  const password = values.password ?? (await io.prompt(`Password for ${values.email}: `));
  const id = await createStaff(io.db.kysely, { email: values.email, password, venueIds: values.venue ?? [] }, (io.now ?? Date.now)());
  io.out(id);
}

async function addStaffVenue(io: AdminIo, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, venue: { type: 'string' } } });
  if (!values.email || !values.venue) throw new Error('--email and --venue are required.');
  await addStaffVenueByEmail(io.db.kysely, values.email, values.venue);
  io.out(`${values.email.trim().toLowerCase()} now runs ${values.venue}`);
}

async function listVenues(io: AdminIo): Promise<void> {
  const rows = await io.db.kysely.selectFrom('venues').select(['id', 'slug', 'name_pt']).orderBy('created_at').execute();
  for (const row of rows) io.out(`${row.id}  ${row.slug}  ${row.name_pt}`);
}

/** Runs one admin command; returns the process exit code (0 ok, 1 refused, 64 usage). */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const [command, ...args] = argv;
  const commands: Record<string, () => Promise<void>> = {
    'create-venue': () => createVenue(io, args),
    'create-staff': () => createStaffCommand(io, args),
    'add-staff-venue': () => addStaffVenue(io, args),
    'list-venues': () => listVenues(io),
  };
  const run = command ? commands[command] : undefined;
  if (!run) {
    io.err(usage);
    return command === 'help' || command === '--help' ? 0 : 64;
  }
  try {
    await run();
    return 0;
  } catch (error) {
    const message = error instanceof AppError ? `${error.message}${error.field ? ` (${error.field})` : ''}` : error instanceof Error ? error.message : String(error);
    io.err(`admin ${command}: ${message}`);
    return 1;
  }
}
