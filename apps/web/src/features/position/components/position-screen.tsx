import { type ErrorCode, type Language, type PositionResponse } from '@vez/contract';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '../../../lib/router';
import { Modal } from '../../../components/ui/lazy-modal';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useConnection } from '../../../lib/connection';
import { reportError } from '../../../lib/error-reporter';
import { usePassportExchange } from '../hooks/use-passport-exchange';
import { toPositionView } from '../lib/position-view';
import { type VenueWording, useVenueText } from '../hooks/use-venue-text';
import { ConversationPanel } from './conversation-panel';
import { LeaveButton } from './leave-button';
import { LiveNote } from './live-note';
import { MenuPrompt, PositionNotes } from './position-notes';

import { WaitingPanel } from './waiting-panel';
import './position.css';

/** The called, seated and left screens load when the party gets there: a waiting page does not carry them (JS budget 120 KB). */
const StatusPanel = lazy(() => import('./status-panel'));

/** What the route knows about the venue (from the venue-info feature), passed in by composition. */
export interface PositionVenue {
  name: string;
  menuUrl: string | null;
  wording?: VenueWording;
}

interface PositionScreenProps {
  waitlistId: string;
  /** The live position query (usePosition). */
  position: { data: PositionResponse | undefined; error: unknown; isError: boolean; lng: Language; isLiveFeed: boolean };
  venue: PositionVenue | undefined;
}

/** /waitlist/:waitlistId: the diner's live place in the queue (docs/product.md §4, §8, §12.2). */
export function PositionScreen({ waitlistId, position, venue }: PositionScreenProps) {
  const venueText = useVenueText(venue?.wording);
  const { i18n } = useTranslation();
  const [params] = useSearchParams();
  // A shared link's reader is not in the queue (docs/product.md §3.2): its own wording, loaded for it alone.
  const isShared = params.get('shared') === 'true' || Boolean(position.data?.waitlist.isShared);
  const [hasSharedTexts, setSharedTexts] = useState(false);
  useEffect(() => {
    if (isShared) void import('../lib/shared-texts').then(() => setSharedTexts(true));
  }, [isShared]);
  const text: typeof venueText = isShared
    ? (key, options) => venueText(i18n.exists(`shared.${key}`) ? `shared.${key}` : key, options)
    : venueText;
  const [isErrorDismissed, setErrorDismissed] = useState(false);
  usePassportExchange(position.lng);
  const { data, error } = position;
  const failed = position.isError && !data;
  const connection = useConnection(position.isLiveFeed);

  useEffect(() => {
    if (failed) reportError(error, { code: 'FAILED_TO_GET_WAITLIST_INFORMATION' satisfies ErrorCode, waitlistId });
  }, [failed, error, waitlistId]);

  if (failed) {
    return (
      <>
        <p className="position-failed">{text('position.loadFailed')}</p>
        <Modal
          open={!isErrorDismissed}
          type="error"
          title={text('position.loadFailed')}
          closeLabel={text('common.close')}
          onClose={() => setErrorDismissed(true)}
          actions={
            <button type="button" className="button button--primary button--block" autoFocus onClick={() => setErrorDismissed(true)}>
              {text('common.ok')}
            </button>
          }
        />
      </>
    );
  }
  if (!data || (isShared && !hasSharedTexts)) {
    return (
      <div className="page--loading">
        <h1 className="visually-hidden">{text('position.loading')}</h1>
        <Spinner label={text('position.loading')} />
      </div>
    );
  }

  const view = toPositionView(data, { isSharedLink: isShared });
  const entry = data.waitlist;
  const menuUrl = venue?.menuUrl;
  return (
    <>
      {view.kind === 'waiting' && (
        <WaitingPanel
          view={view}
          waitlistId={waitlistId}
          venueId={entry.venue}
          customerId={entry.customer._id}
          shareId={entry.shareId}
          venueName={venue?.name ?? ''}
          connection={connection}
          text={text}
        />
      )}
      {(view.kind === 'called' || view.kind === 'seated' || view.kind === 'none') && (
        <Suspense fallback={null}>
          <StatusPanel
            kind={view.kind}
            text={text}
            holdUntil={entry.holdUntil}
            calls={entry.calls}
            reason={entry.cancelReason}
            joinHref={paths.join.href(entry.venue)}
            isShared={isShared}
          />
        </Suspense>
      )}
      {view.kind === 'called' && <LiveNote connection={connection} text={text} />}
      {/* Called, the party may still leave (docs/product.md §7): every answer stays on the called panel. */}
      {view.kind === 'called' && !isShared && (
        <LeaveButton waitlistId={waitlistId} venueId={entry.venue} customerId={entry.customer._id} text={text} />
      )}
      {(view.kind === 'waiting' || view.kind === 'called') && (
        <ConversationPanel waitlistId={waitlistId} entry={entry} lng={position.lng} text={text} />
      )}
      {view.kind === 'waiting' && <PositionNotes text={text} />}
      {menuUrl && view.kind !== 'none' && <MenuPrompt menuUrl={menuUrl} text={text} />}
    </>
  );
}
