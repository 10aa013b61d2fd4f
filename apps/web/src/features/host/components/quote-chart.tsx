import type { HostStatsHour } from '@vez/contract';
import { useHostT } from '../lib/host-i18n';

/**
 * Quoted against actual by the hour parties joined (docs/product.md §4): the share seated inside
 * their quoted range as CSS bars (no chart library), each labelled with the median error. Each bar
 * is a list item whose text says the numbers, so screen readers get the same chart.
 */
export function QuoteChart({ hours }: { hours: readonly HostStatsHour[] }) {
  const { t } = useHostT();
  const quoted = hours.filter((h) => h.quotes);
  if (quoted.length === 0) return <p className="host-empty">{t('today.noQuotes')}</p>;
  const first = quoted[0]!.hour;
  const last = quoted[quoted.length - 1]!.hour;
  const byHour = new Map(quoted.map((h) => [h.hour, h.quotes!]));
  const span = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  return (
    <figure className="host-chart" data-testid="quote-chart">
      <figcaption>{t('today.quoteChartTitle')}</figcaption>
      <ol className="host-chart__bars">
        {span.map((hour) => {
          const q = byHour.get(hour);
          const share = q ? Math.round(q.withinRange * 100) : 0;
          return (
            <li key={hour} className="host-chart__bar">
              <span className="host-chart__value">{q ? `${share}%` : ''}</span>
              <span className="host-chart__fill host-chart__fill--quotes" style={{ height: `${share}%` }} aria-hidden="true" />
              <span className="host-chart__hour">{`${String(hour).padStart(2, '0')}h`}</span>
              <span className="visually-hidden">
                {q ? t('today.quoteBarLabel', { count: q.quoted, share, error: signed(q.medianErrorMinutes) }) : t('today.barEmpty')}
              </span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}

/** Minutes with their sign: waits ran longer (+) or shorter (−) than quoted. */
export const signed = (minutes: number) => (minutes > 0 ? `+${minutes}` : minutes < 0 ? `−${-minutes}` : '0');
