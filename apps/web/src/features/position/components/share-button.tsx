import { Modal } from '../../../components/ui/lazy-modal';
import { useSharePosition } from '../hooks/use-share-position';
import type { TextFn } from '../hooks/use-venue-text';

/** Share the read-only link; the copied notice is a polite status message, shown for 2 seconds. */
export function ShareButton({ shareId, venueName, text }: { shareId: string | null; venueName: string; text: TextFn }) {
  const { share, isCopied, failed, dismissFailure } = useSharePosition(shareId, text('position.shareTitle', { venueName }));
  return (
    <>
      <button type="button" className="button button--primary button--block" onClick={() => void share()}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path
            d="M12 3v12M7 8l5-5 5 5M5 13v6h14v-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {text('position.share')}
      </button>
      <p className="share-notice" role="status">
        {isCopied ? text('position.copied') : ''}
      </p>
      <Modal
        open={failed}
        type="error"
        title={text('position.shareFailed')}
        closeLabel={text('common.close')}
        onClose={dismissFailure}
        actions={
          <button type="button" className="button button--primary button--block" autoFocus onClick={dismissFailure}>
            {text('common.ok')}
          </button>
        }
      />
    </>
  );
}
