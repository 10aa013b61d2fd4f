import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, joinParty } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { QueueCache } from './queue-cache.js';

// queue-cache.ts: a change re-reads the entries its events name; the whole queue is read again
// only past the cache's bound, 30 s by default, ten minutes on one instance whose bus loses no
// event (docs/decisions/052-venues-kept-while-heard.md).

describe.each(stores)('the kept queue on $name', (store) => {
  const t = useTestApp(store);

  it('patches the named entries until its bound, then reads the whole queue again', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await joinParty(t)).id);
    let clock = 0;
    const sameObjects = (a: readonly { id: string }[], b: readonly { id: string }[]) =>
      a.filter((row) => row.id !== ids[0]).every((row) => b.includes(row));
    for (const [bound, kept] of [
      [undefined, false],
      [10 * 60_000, true],
    ] as const) {
      const cache = new QueueCache(DEMO_BISTRO_ID, () => clock, bound);
      const first = await cache.current(t.db.kysely, 'all');
      expect(first.map((row) => row.id)).toEqual(expect.arrayContaining(ids));
      // Within 30 s: only the named entry is read; every other row is the same object.
      clock += 20_000;
      const patched = await cache.current(t.db.kysely, [ids[0]!]);
      expect(sameObjects(patched, first)).toBe(true);
      // Past 30 s: read whole again, unless the bound is longer.
      clock += 20_000;
      const later = await cache.current(t.db.kysely, [ids[0]!]);
      expect(sameObjects(later, patched)).toBe(kept);
      clock += 10 * 60_000;
      const past = await cache.current(t.db.kysely, [ids[0]!]);
      expect(sameObjects(past, later)).toBe(false);
    }
  });
});
