import { useTranslation } from 'react-i18next';
import './join-summary-card.css';

interface JoinSummaryCardProps {
  venueName: string;
  place: string;
  reservationUrl: string;
}

/** The join-waitlist summary card; Change goes to the venue's reservation page (docs/product.md §12). */
export function JoinSummaryCard({ venueName, place, reservationUrl }: JoinSummaryCardProps) {
  const { t } = useTranslation();
  return (
    <section className="summary-card" aria-labelledby="summary-card-title">
      <div className="summary-card__text">
        <h2 id="summary-card-title" className="summary-card__title">
          {t('join.summaryTitle')}
        </h2>
        {place && <p className="summary-card__place">{place}</p>}
        <p className="summary-card__hint">{t('join.summaryText')}</p>
      </div>
      <a className="button button--secondary button--small" href={reservationUrl} aria-label={t('join.changeLabel', { venueName })}>
        {t('common.change')}
      </a>
    </section>
  );
}
