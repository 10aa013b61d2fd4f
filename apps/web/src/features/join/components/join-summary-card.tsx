import { type CurrentWait, waitDisplay } from '@vez/contract';
import { useTranslation } from 'react-i18next';
import './join-summary-card.css';

interface JoinSummaryCardProps {
  venueName: string;
  place: string;
  reservationUrl: string;
  /** The wait a party joining now would be quoted (docs/product.md §4); absent when the venue does not show it. */
  currentWait?: CurrentWait | undefined;
}

/** The join-waitlist summary card; Change goes to the venue's reservation page (docs/product.md §12). */
export function JoinSummaryCard({ venueName, place, reservationUrl, currentWait }: JoinSummaryCardProps) {
  const { t } = useTranslation();
  const count = currentWait?.partiesAhead ?? 0;
  // Before the venue has a pace or history, the parties ahead alone; a wide range by its lower end (wait-display.ts).
  const shown = currentWait?.estimatedRange && waitDisplay(currentWait.estimatedRange);
  const line = !currentWait
    ? null
    : !shown
      ? t('join.partiesAhead', { count })
      : shown.kind === 'range'
        ? t('join.currentWait', { low: shown.low, high: shown.high, count })
        : t(shown.kind === 'about' ? 'join.currentWaitAbout' : 'join.currentWaitMoreThan', { minutes: shown.minutes, count });
  return (
    <section className="summary-card" aria-labelledby="summary-card-title">
      <div className="summary-card__text">
        <h2 id="summary-card-title" className="summary-card__title">
          {t('join.summaryTitle')}
        </h2>
        {place && <p className="summary-card__place">{place}</p>}
        <p className="summary-card__hint">{t('join.summaryText')}</p>
        {line && (
          <p className="summary-card__wait" data-testid="current-wait">
            {line}
          </p>
        )}
      </div>
      <a className="button button--secondary button--small" href={reservationUrl} aria-label={t('join.changeLabel', { venueName })}>
        {t('common.change')}
      </a>
    </section>
  );
}
