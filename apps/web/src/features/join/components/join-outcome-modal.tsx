import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../../lib/router';
import { Modal } from '../../../components/ui/lazy-modal';
import { paths } from '../../../config/paths';

export type JoinOutcome =
  /** `channel`: what the first message went by (docs/product.md §10). */
  | { kind: 'success'; waitlistId: string; channel?: 'sms' | 'whatsapp' }
  | { kind: 'error'; messageKey: string; values?: Record<string, string> }
  /**
   * A repeat join without this browser's proof: no entry shown, the link went again the way the
   * first join chose (by SMS, or on WhatsApp at a WhatsApp venue: `channel` is the venue's).
   */
  | { kind: 'alreadyOnList'; channel?: 'sms' | 'whatsapp' }
  | { kind: 'closed'; reason: 'locked' | 'inactive' }
  /** The join got no answer (no network): the form keeps its values; `retry` sends the same attempt again. */
  | { kind: 'networkError'; retry: () => void }
  | { kind: 'venueNotFound' };

interface JoinOutcomeModalProps {
  outcome: JoinOutcome | undefined;
  reservationUrl: string;
  hideReceptionistHint: boolean;
  /** Per-venue wording override of a message key, if any (docs/product.md §2). */
  text: (key: string) => string;
  onDismiss: () => void;
}

/** The join screen's dialogs of docs/product.md §18: joined, failed, closed, venue not found. */
export function JoinOutcomeModal({ outcome, reservationUrl, hideReceptionistHint, text, onDismiss }: JoinOutcomeModalProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!outcome) return null;
  const ok = (onClick: () => void, label = t('common.ok')) => (
    <button type="button" className="button button--primary button--block" autoFocus onClick={onClick}>
      {label}
    </button>
  );

  switch (outcome.kind) {
    case 'success':
      return (
        <Modal
          open
          type="success"
          closable={false}
          title={text('join.successTitle')}
          actions={ok(() => navigate(paths.position.href(outcome.waitlistId)), t('join.follow'))}
        >
          <p>{text(outcome.channel === 'whatsapp' ? 'join.successWhatsApp' : 'join.successSms')}</p>
          {!hideReceptionistHint && <p>{text('join.successReceptionist')}</p>}
        </Modal>
      );
    case 'error':
      return (
        <Modal
          open
          type="error"
          title={t(outcome.messageKey, outcome.values)}
          closeLabel={t('common.close')}
          onClose={onDismiss}
          actions={ok(onDismiss)}
        />
      );
    case 'networkError':
      return (
        <Modal
          open
          type="error"
          title={t('join.networkErrorTitle')}
          closeLabel={t('common.close')}
          onClose={onDismiss}
          actions={
            <>
              {ok(() => {
                onDismiss();
                outcome.retry();
              }, t('join.retry'))}
              <button type="button" className="button button--secondary button--block" onClick={onDismiss}>
                {t('common.close')}
              </button>
            </>
          }
        >
          <p>{t('join.networkErrorText')}</p>
        </Modal>
      );
    case 'alreadyOnList':
      return (
        <Modal
          open
          type="warning"
          title={t('join.alreadyOnListTitle')}
          closeLabel={t('common.close')}
          onClose={onDismiss}
          actions={ok(onDismiss)}
        >
          <p>{t(outcome.channel === 'whatsapp' ? 'join.alreadyOnListTextWhatsApp' : 'join.alreadyOnListText')}</p>
        </Modal>
      );
    case 'closed':
      return (
        <Modal
          open
          type="closed"
          closable={false}
          title={t(outcome.reason === 'locked' ? 'join.locked' : 'join.inactive')}
          actions={ok(() => window.location.assign(reservationUrl))}
        >
          {/* Remote joins are off, the door is not (docs/product.md §12.1): the host adds walk-ins. */}
          {outcome.reason === 'locked' && <p data-testid="locked-door">{t('join.lockedDoor')}</p>}
        </Modal>
      );
    case 'venueNotFound':
      return (
        <Modal
          open
          type="error"
          closable={false}
          title={t('join.venueNotFound')}
          actions={ok(() => navigate(paths.notFound.href(), { replace: true }))}
        />
      );
  }
}
