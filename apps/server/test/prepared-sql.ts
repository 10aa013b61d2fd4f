import SQLite from 'better-sqlite3';
import { expect, vi } from 'vitest';

/**
 * The SQL a call runs on SQLite, caught where better-sqlite3 prepares it: the one statement of the
 * call that `pick` matches (the test fails, naming `label`, unless exactly one does). A statement
 * already in the store's statement cache is not prepared again: give each call a store, or a
 * statement of its own, that has not run it yet.
 */
export async function preparedSqlOf(run: () => Promise<unknown>, pick: RegExp, label?: string): Promise<string> {
  const prepared = vi.spyOn(SQLite.prototype, 'prepare');
  try {
    await run();
    const texts = prepared.mock.calls.map(([text]) => text).filter((text) => pick.test(text));
    expect(texts, label).toHaveLength(1);
    return texts[0]!;
  } finally {
    prepared.mockRestore();
  }
}
