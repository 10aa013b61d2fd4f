// What stands before a newcomer, as every join reads it from the counts the triggers keep
// (queue/waiting-counts.repository.ts `countBeforeNewcomer`), on the app's own schema: a venue with
// parties waiting and called in four bands at two priorities. Before: `sum(case ...) ... group by
// band` in SQL, which SQLite sorts in a temporary b-tree, then the bands in JavaScript (the app's
// way). Tried: the venue's rows as its primary key holds them, summed in JavaScript; not kept,
// its gain depends on how many rows the venue has (docs/decisions/064-join-rows-and-the-next-free-table.md).
// The pair in the same process, in turns. COUNTS_PRIORITIES=1: parties of one priority only (8 rows, not 16).
// Run: node --import tsx bench/lib/counts-micro.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { seedUncappedDemo } from '../../apps/server/test/uncapped-demo.js';
import { DEMO_BISTRO_ID } from '../../apps/server/src/seed/demo.js';
import { compareInTurns } from './micro-compare.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-counts-'));
const file = path.join(dir, 'counts.db');
await seedUncappedDemo({ kind: 'sqlite', file });
const db = new SQLite(file);
const venue = DEMO_BISTRO_ID;
const insert = db.prepare(
  `insert into entries (id, share_id, venue_id, seq, status, priority, party_size, band, name, phone, origin_label, lang, created_at)
   values (?, ?, ?, ?, ?, ?, 2, ?, 'Ana Maria', ?, 'Widget', 'pt', ?)`,
);
db.transaction(() => {
  for (let i = 0; i < 400; i++)
    insert.run(
      `e${String(i).padStart(21, '0')}`,
      `s${String(i).padStart(21, '0')}`,
      venue,
      10_000 + i,
      i % 10 === 0 ? 'called' : 'active',
      Number(process.env.COUNTS_PRIORITIES ?? 2) > 1 && i % 7 === 0 ? 1 : 0,
      i % 4,
      `+55119${String(80_000_000 + i)}`,
      Date.now(),
    );
})();

type Row = Record<string, number | string | null>;
const grouped = db.prepare(`
    select band,
      sum(case when status = 'active' and priority >= ? then n else 0 end) as ahead,
      sum(case when status = 'active' then n else 0 end) as waiting,
      sum(case when status = 'called' then n else 0 end) as called
    from venue_open_counts where venue_id = ?
    group by band`);
const rowsOf = db.prepare(`select "band", "priority", "status", "n" from "venue_open_counts" where "venue_id" = ?`);

/** The app's way: the SQL's sums per band, then the lists by band (entries.repository.ts `byBand`). */
function groupedInSql(band: number, priority: number) {
  const rows = grouped.all(priority, venue) as Row[];
  const byBand = (key: string) => {
    const out: number[] = [];
    for (const row of rows) {
      const b = Number(row.band);
      while (out.length <= b) out.push(0);
      out[b] = out[b]! + Number(row[key] ?? 0);
    }
    return out;
  };
  const aheadByBand = byBand('ahead');
  const calledByBand = byBand('called');
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { ahead: sum(aheadByBand), aheadInBand: aheadByBand[band] ?? 0, called: sum(calledByBand), waiting: sum(byBand('waiting')) };
}

/** The way tried: the rows, one pass (commit 2e7532a's waiting-counts.repository.ts `countBeforeNewcomer`). */
function summedRows(band: number, priority: number) {
  const aheadByBand: number[] = [];
  const calledByBand: number[] = [];
  let ahead = 0;
  let called = 0;
  let waiting = 0;
  for (const row of rowsOf.all(venue) as { band: number; priority: number; status: string; n: number }[]) {
    while (aheadByBand.length <= row.band) aheadByBand.push(0);
    while (calledByBand.length <= row.band) calledByBand.push(0);
    if (row.status === 'active') {
      waiting += row.n;
      if (row.priority >= priority) {
        aheadByBand[row.band] = aheadByBand[row.band]! + row.n;
        ahead += row.n;
      }
    } else if (row.status === 'called') {
      calledByBand[row.band] = calledByBand[row.band]! + row.n;
      called += row.n;
    }
  }
  return { ahead, aheadInBand: aheadByBand[band] ?? 0, called, waiting };
}

// The same answer both ways, first.
for (const priority of [0, 1])
  for (const band of [0, 1, 2, 3]) {
    const [a, b] = [groupedInSql(band, priority), summedRows(band, priority)];
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`different counts: ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
  }
compareInTurns(
  'what stands before a newcomer: group by in SQL (the app) / the rows summed (tried)',
  () => groupedInSql(1, 0),
  () => summedRows(1, 0),
  { rounds: 6 },
);
db.close();
fs.rmSync(dir, { recursive: true, force: true });
