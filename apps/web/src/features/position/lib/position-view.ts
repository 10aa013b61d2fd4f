import { type PositionResponse, isGettingClose } from '@vez/contract';

/** What the diner is shown while still waiting (docs/product.md §4, §12.2). */
export interface WaitingView {
  kind: 'waiting';
  /** `pos`: the place in the diner's queue (inside the party-size band in advanced mode). */
  position: number;
  /** `globalPos`: parties of every size ahead, plus one. */
  generalPosition: number;
  /** Venue setting or entry flag: show the watch-your-SMS message instead of numbers. */
  isPositionHidden: boolean;
  /** "Your turn is coming": the venue's getting-close rule, the server's own (docs/product.md §8). */
  isTurnComing: boolean;
  /** Leave and share: only the diner's own link, never a shared one (docs/product.md §3). */
  canLeave: boolean;
  canShare: boolean;
  partySize: number;
  customerTab: string;
  /** Minutes; null when the venue has no seating history yet (nothing is shown then). */
  estimatedMinutes: number | null;
  /** The range the wait most likely falls in (docs/product.md §4); null shows the central figure alone. */
  estimatedRange: { low: number; high: number } | null;
  isPriority: boolean;
}

/**
 * The state machine of docs/product.md §14. `none`: cancelled (any reason), shows 'You are no longer on
 * the waitlist.'; `unknown`: a status the product does not show.
 */
export type PositionView = WaitingView | { kind: 'called' } | { kind: 'seated' } | { kind: 'none' } | { kind: 'unknown' };

export interface ViewOptions {
  /** The address carries `?shared=true`. */
  isSharedLink: boolean;
}

/**
 * Maps a position answer (from GET /position or a stream snapshot: the same shape) to what the page
 * shows. A cancel reason wins over everything; seatedAt wins over notifiedAt; the timestamps count
 * even when `status` lags behind them.
 */
export function toPositionView(data: PositionResponse, options: ViewOptions): PositionView {
  const entry = data.waitlist;
  if (entry.cancelReason || entry.status === 'cancelled') return { kind: 'none' };
  if (entry.seatedAt || entry.status === 'seated') return { kind: 'seated' };
  if (entry.notifiedAt || entry.status === 'called') return { kind: 'called' };
  if (entry.status !== 'active') return { kind: 'unknown' };

  const isShared = options.isSharedLink || entry.isShared || !entry.shareId;
  // A venue that hides positions sends no figures at all (docs/product.md §4): nothing to show but the message.
  const globalPos = entry.globalPos ?? 0;
  const position = (entry.pos ?? 0) > 0 ? (entry.pos ?? 0) : globalPos;
  return {
    kind: 'waiting',
    position,
    generalPosition: globalPos,
    isPositionHidden: data.waitlistSettings.hiddenCustomerPosition || entry.hideCustomerPosition || entry.globalPos === undefined,
    // The rule the getting-close message follows (packages/contract/src/getting-close.ts): the place in
    // the whole queue and the top of the range; never for a party that joined already that close.
    isTurnComing: !entry.joinedClose && isGettingClose(data.waitlistSettings, globalPos, entry.estimatedRange?.high ?? null),
    canLeave: !isShared,
    canShare: !isShared,
    partySize: entry.partySize,
    customerTab: entry.customerTab,
    estimatedMinutes: entry.estimatedTime == null ? null : Math.max(1, Math.round(entry.estimatedTime)),
    estimatedRange: entry.estimatedTime == null || !entry.estimatedRange ? null : roundedRange(entry.estimatedRange),
    isPriority: entry.priority,
  };
}

/** Seated and gone are final: nothing will change any more, so the page stops listening. */
export const isFinalView = (view: PositionView | undefined): boolean => view?.kind === 'seated' || view?.kind === 'none';

/**
 * A range as a diner reads it (docs/product.md §4): whole minutes, never the same figure twice
 * ("15-20 min", not "15-15 min"), at least 1 minute at the top.
 */
export function roundedRange(range: { low: number; high: number }): { low: number; high: number } | null {
  const low = Math.max(0, Math.floor(range.low));
  const high = Math.max(1, Math.ceil(range.high));
  return high > low ? { low, high } : null;
}
