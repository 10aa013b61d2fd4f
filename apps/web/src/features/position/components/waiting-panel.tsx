import { waitDisplay } from '@vez/contract';
import type { Connection } from '../../../lib/connection';
import type { WaitingView } from '../lib/position-view';
import type { TextFn } from '../hooks/use-venue-text';
import { LeaveButton } from './leave-button';
import { LiveNote } from './live-note';
import { PositionBadge } from './position-badge';
import { ShareButton } from './share-button';

interface WaitingPanelProps {
  view: WaitingView;
  waitlistId: string;
  venueId: string;
  customerId: string;
  shareId: string | null;
  venueName: string;
  connection: Connection;
  text: TextFn;
}

/** The waiting screen: badge (or the hidden-position message), details, notices, leave and share. */
export function WaitingPanel({ view, waitlistId, venueId, customerId, shareId, venueName, connection, text }: WaitingPanelProps) {
  return (
    <section className="waiting-panel" data-state="waiting" aria-labelledby="waiting-title">
      <h1 id="waiting-title" className="waiting-panel__title">
        {text('position.title')}
      </h1>
      {view.isPositionHidden ? (
        <p className="waiting-panel__hidden" data-testid="position-hidden">
          {text('position.hidden')}
        </p>
      ) : (
        <PositionBadge position={view.position} text={text} />
      )}
      <ul className="waiting-panel__facts">
        <li>{text('position.party', { count: view.partySize })}</li>
        {!view.isPositionHidden && <li>{text('position.generalPosition', { position: view.generalPosition })}</li>}
        <li>{text('position.orderPad', { number: view.customerTab })}</li>
        {view.estimatedMinutes !== null && !view.isPositionHidden && <li data-testid="estimated-wait">{estimateText(view, text)}</li>}
        {view.isPriority && <li className="waiting-panel__priority">{text('position.priority')}</li>}
      </ul>
      <LiveNote connection={connection} text={text} />
      {view.isTurnComing && (
        <div className="turn-coming" role="status" data-testid="turn-coming">
          <p className="turn-coming__title">{text('position.turnComingTitle')}</p>
          <p>{text('position.turnComing')}</p>
        </div>
      )}
      {(view.canLeave || view.canShare) && (
        <div className="waiting-panel__actions">
          {view.canShare && <ShareButton shareId={shareId} venueName={venueName} text={text} />}
          {view.canLeave && <LeaveButton waitlistId={waitlistId} venueId={venueId} customerId={customerId} text={text} />}
        </div>
      )}
      {!view.canShare && <p className="waiting-panel__shared">{text('position.sharedView')}</p>}
    </section>
  );
}

/** The wait as the page shows it: a range, or by its lower end when it is too wide to promise (wait-display.ts). */
function estimateText(view: WaitingView, text: TextFn): string {
  const shown = view.estimatedRange && waitDisplay(view.estimatedRange);
  if (shown?.kind === 'range') return text('position.estimatedRange', { low: shown.low, high: shown.high });
  if (shown?.kind === 'moreThan') return text('position.estimatedMoreThan', { count: shown.minutes });
  return text('position.estimatedTime', { count: view.estimatedMinutes });
}
