import Database from 'better-sqlite3';

/**
 * Direct changes to a running server's SQLite file. The server keeps parsed venues for ~2 s
 * (apps/server/src/modules/venues/venue-cache.ts), so a diner request right after may still see
 * the old state: prefer `putWaitlistState` (host API), which drops that copy. Use this for what no
 * API changes.
 */
export function setWaitlistState(dbFile: string, venueId: string, state: { active?: boolean; locked?: boolean }): void {
  const db = new Database(dbFile);
  try {
    db.pragma('busy_timeout = 5000');
    if (state.active !== undefined) {
      db.prepare('UPDATE venues SET waitlist_active = ? WHERE id = ?').run(state.active ? 1 : 0, venueId);
    }
    if (state.locked !== undefined) {
      db.prepare('UPDATE venues SET waitlist_locked = ? WHERE id = ?').run(state.locked ? 1 : 0, venueId);
    }
  } finally {
    db.close();
  }
}

/** Rows of a table (tests read what the server stored). */
export function queryRows<T = Record<string, unknown>>(dbFile: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Changes rows of a running server's store directly (what no API does, such as shortening a hold window in a test). */
export function updateRows(dbFile: string, sql: string, ...params: unknown[]): number {
  const db = new Database(dbFile);
  try {
    db.pragma('busy_timeout = 5000');
    return db.prepare(sql).run(...params).changes;
  } finally {
    db.close();
  }
}
