import { useEffect } from 'react';
import { useHostT } from '../lib/host-i18n';

export interface UndoOffer {
  entryId: string;
  message: string;
}

/** How long the undo button stays (the server allows 60 s, so a slow tap still works). */
export const UNDO_SHOW_MS = 10_000;

export function UndoToast({
  offer,
  onUndo,
  onExpire,
}: {
  offer: UndoOffer | null;
  onUndo: (offer: UndoOffer) => void;
  onExpire: () => void;
}) {
  const { t } = useHostT();
  useEffect(() => {
    if (!offer) return;
    const id = setTimeout(onExpire, UNDO_SHOW_MS);
    return () => clearTimeout(id);
  }, [offer, onExpire]);
  return (
    <div className="host-toast" role="status" aria-live="polite">
      {offer && (
        <>
          <span>{offer.message}</span>
          <button type="button" className="host-chip host-chip--light" onClick={() => onUndo(offer)}>
            {t('undo.action')}
          </button>
        </>
      )}
    </div>
  );
}
