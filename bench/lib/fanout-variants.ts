// The simpler ways of writing a fan-out, measured against the app's kept ones in the same run
// (docs/decisions/018-optimisations-that-pay.md). They live here, not in the app: the app takes a
// fan-out strategy (apps/server/src/modules/realtime/fanout.ts) and ships productionFanout.
import { type FanoutStrategy, writeFromTemplate, writeWhole } from '../../apps/server/src/modules/realtime/fanout.js';

/** The switches of one round: both off is the app as shipped. */
export interface FanoutVariant {
  /** Every message through res.write instead of whole HTTP chunks straight to the socket (sse-stream.ts). */
  responseWrites: boolean;
  /** Each diner's message built and serialised whole (toPositionEntry + JSON.stringify) instead of filled into its template. */
  stringifyEach: boolean;
}

/**
 * A strategy that reads `variant` at every write, so the bench switches between rounds on the same
 * open streams by changing the object.
 */
export function switchableFanout(variant: FanoutVariant): FanoutStrategy {
  return {
    get responseWrites() {
      return variant.responseWrites;
    },
    get keepsRows() {
      return variant.stringifyEach;
    },
    writeDiner(diner, template, placement, view, row) {
      if (variant.stringifyEach && row) writeWhole(diner, placement, view, row);
      else writeFromTemplate(diner, template, placement);
    },
  };
}
