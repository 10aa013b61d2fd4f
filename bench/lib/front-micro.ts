// The getting-close check's read of a venue's front (entries.repository.ts `firstWaiting`), on the
// app's own schema: a venue with 150 parties waiting and 5,000 that ended, three parties at the
// front, after `max(priority)`. Before: three whole rows (45 columns, which better-sqlite3 makes
// into objects a column at a time) with the count bound (`limit ?`, which makes SQLite prepare the
// statement again at every run). Now: the front's eight columns, the count written in
// (docs/decisions/060-the-front-read-narrow.md,
// 061-limits-written-in-the-statement.md). Each pair in the same process, in turns.
// Run: node --import tsx bench/lib/front-micro.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { seedUncappedDemo } from '../../apps/server/test/uncapped-demo.js';
import { DEMO_BISTRO_ID } from '../../apps/server/src/seed/demo.js';
import { FRONT_COLUMNS } from '../../apps/server/src/modules/queue/entries.repository.js';
import { compareInTurns } from './micro-compare.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-front-'));
const file = path.join(dir, 'front.db');
await seedUncappedDemo({ kind: 'sqlite', file });
const db = new SQLite(file);
const venue = DEMO_BISTRO_ID;
const insert = db.prepare(
  `insert into entries (id, share_id, venue_id, seq, status, priority, party_size, band, name, phone, origin_label, lang, created_at,
     quoted_minutes, quoted_low, quoted_high, quote_basis, client_key)
   values (?, ?, ?, ?, ?, 0, 2, 2, 'Ana Maria', ?, 'Widget', 'pt', ?, 12, 8, 20, '{"band":1.2,"venue":3.4,"own":12}', 'k')`,
);
db.transaction(() => {
  for (let i = 0; i < 5_150; i++)
    insert.run(
      `e${String(i).padStart(21, '0')}`,
      `s${String(i).padStart(21, '0')}`,
      venue,
      10_000 + i,
      i < 5_000 ? 'seated' : 'active',
      `+55119${String(80_000_000 + i)}`,
      Date.now(),
    );
})();

const where = `from "entries" where "venue_id" = ? and "status" = 'active'`;
const columns = FRONT_COLUMNS.map((c) => `"${c}"`).join(', ');
const maxTop = db.prepare(`select max("priority") as "p" ${where}`);
const boundTop = db.prepare(`select "priority" as "p" ${where} order by "priority" desc limit ?`);
const writtenTop = db.prepare(`select "priority" as "p" ${where} order by "priority" desc limit 1`);
const wholeBound = db.prepare(`select * ${where} and "priority" = ? order by "seq" asc limit ?`);
const wholeWritten = db.prepare(`select * ${where} and "priority" = ? order by "seq" asc limit 3`);
const narrowBound = db.prepare(`select ${columns} ${where} and "priority" = ? order by "seq" asc limit ?`);
const narrowWritten = db.prepare(`select ${columns} ${where} and "priority" = ? order by "seq" asc limit 3`);
compareInTurns(
  'the top priority, the index backwards: limit ? bound / written in',
  () => boundTop.all(venue, 1),
  () => writtenTop.all(venue),
);
compareInTurns(
  'three whole rows: limit ? bound / written in',
  () => wholeBound.all(venue, 0, 3),
  () => wholeWritten.all(venue, 0),
);
compareInTurns(
  'three parties, the eight columns: limit ? bound / written in',
  () => narrowBound.all(venue, 0, 3),
  () => narrowWritten.all(venue, 0),
);
compareInTurns(
  'the front (the top priority, then three parties): whole rows, limit ? bound / as now (decisions 060, 061)',
  () => {
    maxTop.all(venue);
    return wholeBound.all(venue, 0, 3);
  },
  () => {
    maxTop.all(venue);
    return narrowWritten.all(venue, 0);
  },
);
db.close();
fs.rmSync(dir, { recursive: true, force: true });
