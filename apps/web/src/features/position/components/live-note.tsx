import type { Connection } from '../../../lib/connection';
import type { TextFn } from '../hooks/use-venue-text';

const KEYS: Record<Connection, string> = { ok: 'position.realTime', down: 'position.notLive', back: 'position.backLive' };

/**
 * Whether the place on screen is live (docs/product.md §12.7): said at once when the network or
 * the stream drops, and again when it is back. A live region, so screen readers hear it too.
 */
export function LiveNote({ connection, text }: { connection: Connection; text: TextFn }) {
  return (
    <p className="live-note" role="status" data-connection={connection} data-testid="live-note">
      <span className="live-note__dot" aria-hidden="true" />
      {text(KEYS[connection])}
    </p>
  );
}
