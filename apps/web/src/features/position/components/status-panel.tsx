import type { TextFn } from '../hooks/use-venue-text';
import { Suspense, lazy } from 'react';
import '../lib/status-texts';

/** The hold window's countdown loads only for a called party. */
const HoldTimer = lazy(() => import('./hold-timer'));

const icons = {
  called: 'M24 8a9 9 0 00-9 9v7l-3 5h24l-3-5v-7a9 9 0 00-9-9zm-4 25a4 4 0 008 0',
  seated: 'M14 25l7 7 13-15',
  none: 'M16 16l16 16M32 16L16 32',
} as const;

/**
 * The called, seated and no-longer-on-the-waitlist screens: no position or share. A page that ended
 * says why (the cancel reason; seated) and offers the venue's join link again (docs/product.md §12.2).
 */
export default function StatusPanel({
  kind,
  text,
  holdUntil,
  calls = 1,
  reason,
  joinHref,
  isShared = false,
}: {
  kind: 'called' | 'seated' | 'none';
  text: TextFn;
  holdUntil?: string | null;
  calls?: number;
  /** The entry's cancel reason, for `none`. */
  reason?: string | null;
  /** The venue's join page, for the pages that end. */
  joinHref?: string;
  isShared?: boolean;
}) {
  // Seated says why in its own text; a cancelled entry says which ending it was.
  const why = !isShared && kind === 'none' && reason ? `position.ended_${reason}` : undefined;
  return (
    <section className={`status-panel status-panel--${kind}`} data-state={kind} aria-labelledby="status-panel-title">
      <svg className="status-panel__icon" viewBox="0 0 48 48" width="64" height="64" aria-hidden="true" focusable="false">
        <circle cx="24" cy="24" r="22" fill="currentColor" opacity="0.14" />
        <path d={icons[kind]} fill="none" stroke="currentColor" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <h1 id="status-panel-title" className="status-panel__title" aria-live="polite">
        {text(`position.${kind}Title`)}
      </h1>
      {/* Why it ended comes first (docs/product.md §12.2). */}
      {why && (
        <p className="status-panel__text" data-testid="ended-why">
          {text(why)}
        </p>
      )}
      <p className="status-panel__text">{text(`position.${kind}`)}</p>
      {kind === 'called' && holdUntil && (
        <Suspense fallback={null}>
          <HoldTimer until={holdUntil} calls={calls} text={text} />
        </Suspense>
      )}
      {kind === 'called' && <p className="status-panel__text">{text('position.priorityNotice')}</p>}
      {kind !== 'called' && joinHref && (
        <a className="button button--primary button--block status-panel__join" href={joinHref} data-testid="join-again">
          {text('position.joinAgain')}
        </a>
      )}
    </section>
  );
}
