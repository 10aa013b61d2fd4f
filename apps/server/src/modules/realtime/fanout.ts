import { type Language, StreamMessage } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import type { Placement } from '../queue/index.js';
import { type FramedTemplate, type PositionView, fillFrame, renderFull } from './position-template.js';
import type { SseStream } from './sse-stream.js';

/** What a diner's write is handed: its stream and view, the entry's template, its place, its row when kept. */
export interface DinerWrite {
  stream: SseStream;
  isShared: boolean;
  lang: Language;
  template: FramedTemplate;
  placement: Placement;
  view: PositionView;
  /** The entry's whole row, when the strategy keeps rows (`keepsRows`); else undefined. */
  row: EntryRow | undefined;
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
  /** Writes a diner's position message. */
  writeDiner(write: DinerWrite): void;
}

/** A diner's position message, filled into its template (docs/decisions/018-optimisations-that-pay.md). */
export function writeFromTemplate({ stream, template, placement }: DinerWrite): void {
  if (template.frame) stream.sendFrame(fillFrame(template.frame, placement));
  // No figures to write (hidePosition): the same message for every placement and subscriber.
  else if (template.fixedFrame !== undefined) stream.sendFrame(template.fixedFrame);
}

/** A diner's position message built and serialised whole from its row (the plain way). */
export function writeWhole({ stream, row, placement, view, isShared, lang }: DinerWrite & { row: EntryRow }): void {
  stream.send(StreamMessage.position, renderFull(row, placement, view, isShared, lang));
}

/** The app as shipped: templates, whole chunks to the socket. */
export const productionFanout: FanoutStrategy = { responseWrites: false, keepsRows: false, writeDiner: writeFromTemplate };
