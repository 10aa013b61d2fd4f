import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/lazy-modal';

/**
 * 'Waitlist is currently inaccessible.' (docs/product.md §18): not closable; OK leaves for the venue's
 * reservation page.
 */
export function VenueInaccessibleModal({ reservationUrl }: { reservationUrl: string }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      type="closed"
      closable={false}
      title={t('venue.inaccessibleTitle')}
      actions={
        <button
          type="button"
          className="button button--primary button--block"
          autoFocus
          onClick={() => window.location.assign(reservationUrl)}
        >
          {t('common.ok')}
        </button>
      }
    >
      <p>{t('venue.inaccessible')}</p>
    </Modal>
  );
}
