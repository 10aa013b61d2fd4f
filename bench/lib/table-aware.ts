// A prototype for bench/estimate.bench.ts, not in the product: the product's own estimator
// (apps/server/src/modules/queue/estimator.ts) keyed by the size of the table each party got, as if
// the console recorded it at the seat, instead of by band. It shows what recording the table would
// buy in basic mode, where bands share tables (docs/decisions/022-wait-estimates.md, "Not done").
import type { PaceRow } from '../../apps/server/src/db/types.js';
import { VENUE_WIDE_BAND, estimate, nextPace, slotOf } from '../../apps/server/src/modules/estimate/estimator.js';
import type { Party } from './restaurant-sim.js';

export class TableAware {
  private paces = new Map<number, PaceRow>();
  /** Per party size, how often each table size was recorded. */
  private tablesBySize = new Map<number, Map<number, number>>();
  private quotes = new Map<number, { minutes: number; basis: string; table: number }>();

  /** The table size a party of this size most often got; the venue as a whole before any is known. */
  private tableFor(size: number): number {
    const seen = this.tablesBySize.get(size);
    if (!seen) return VENUE_WIDE_BAND;
    return [...seen.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  }

  quote(p: Party, ahead: { waiting: Party[]; called: Party[] }, at: number): { time: number; low: number; high: number } | null {
    const table = this.tableFor(p.size);
    const before = {
      ahead: ahead.waiting.length,
      called: ahead.called.length,
      aheadInBand: ahead.waiting.filter((w) => this.tableFor(w.size) === table).length,
      calledInBand: ahead.called.filter((c) => c.table?.size === table).length,
    };
    const quote = estimate({ paces: [...this.paces.values()], slots: [], slot: slotOf(at), at }, table, before, true);
    if (quote?.basis) this.quotes.set(p.id, { minutes: quote.time, basis: JSON.stringify(quote.basis), table });
    return quote;
  }

  seated(p: Party, at: number): void {
    const table = p.table!.size;
    const seen = this.tablesBySize.get(p.size) ?? new Map<number, number>();
    seen.set(table, (seen.get(table) ?? 0) + 1);
    this.tablesBySize.set(p.size, seen);
    const quote = this.quotes.get(p.id);
    this.quotes.delete(p.id);
    // A forecast made for another table size teaches that row nothing.
    const basis = quote && quote.table === table ? quote.basis : null;
    for (const key of [VENUE_WIDE_BAND, table]) {
      const seatedParty = {
        created_at: p.joinedAt,
        quoted_minutes: quote?.minutes ?? null,
        quote_basis: key === VENUE_WIDE_BAND ? (quote?.basis ?? null) : basis,
      };
      this.paces.set(key, nextPace(this.paces.get(key), 'prototype', key, seatedParty, at));
    }
  }

  forget(p: Party): void {
    this.quotes.delete(p.id);
  }
}
