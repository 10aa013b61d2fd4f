import { type Language, StreamMessage } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import type { Placement } from '../queue/index.js';
import { type FramedTemplate, type PositionView, fillFrame, renderFull } from './position-template.js';
import type { SseStream } from './sse-stream.js';

/** The diner a message is written to: its stream and view (a DinerSubscriber, venue-hub.ts). */
export interface DinerWrite {
  stream: SseStream;
  isShared: boolean;
  lang: Language;
}

/**
 * How the fan-out writes (venue-hub.ts, sse-stream.ts). Production uses `productionFanout`, the
 * kept optimisations; bench/lib/fanout-variants.ts injects the simpler ways they are measured
 * against in the same run (docs/decisions/018-optimisations-that-pay.md). Read at every write.
 */
export interface FanoutStrategy {
  /** Every message through res.write instead of whole HTTP chunks straight to the socket (sse-stream.ts). */
  readonly responseWrites: boolean;
  /** The hub keeps each entry's whole row for `writeDiner` (a strategy that builds every message whole). */
  readonly keepsRows: boolean;
  /**
   * Every diner written on every change it sees, even when its message is the one it was last
   * written (the simpler way of docs/decisions/066-pages-written-when-they-change.md); the app
   * skips those.
   */
  readonly writesUnchanged?: boolean;
  /**
   * Writes a diner's position message: the entry's template, its place, its row when kept (else
   * undefined). Handed the subscriber itself, not a new object per write: 10,000 per change.
   */
  writeDiner(diner: DinerWrite, template: FramedTemplate, placement: Placement, view: PositionView, row: EntryRow | undefined): void;
}

/** A diner's position message, filled into its template (docs/decisions/018-optimisations-that-pay.md). */
export function writeFromTemplate(diner: DinerWrite, template: FramedTemplate, placement: Placement): void {
  if (template.frame) diner.stream.sendFrame(fillFrame(template.frame, placement));
  // No figures to write (hidePosition): the same message for every placement and subscriber.
  else if (template.fixedFrame !== undefined) diner.stream.sendFrame(template.fixedFrame);
}

/** A diner's position message built and serialised whole from its row (the plain way). */
export function writeWhole(diner: DinerWrite, placement: Placement, view: PositionView, row: EntryRow): void {
  diner.stream.send(StreamMessage.position, renderFull(row, placement, view, diner.isShared, diner.lang));
}

/** The app as shipped: templates, whole chunks to the socket. */
export const productionFanout: FanoutStrategy = { responseWrites: false, keepsRows: false, writeDiner: writeFromTemplate };
