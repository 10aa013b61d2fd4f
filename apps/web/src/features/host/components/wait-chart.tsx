import type { HostStatsHour } from '@vez/contract';
import { useHostT } from '../lib/host-i18n';

/**
 * Median wait by the hour parties joined, as CSS bars (no chart library). Each bar is a list
 * item whose text says the numbers, so screen readers get the same chart.
 */
export function WaitChart({ hours }: { hours: readonly HostStatsHour[] }) {
  const { t } = useHostT();
  if (hours.length === 0) return <p className="host-empty">{t('today.noSeats')}</p>;
  const first = hours[0]?.hour ?? 0;
  const last = hours[hours.length - 1]?.hour ?? first;
  const byHour = new Map(hours.map((h) => [h.hour, h]));
  const max = Math.max(1, ...hours.map((h) => h.medianWaitMinutes));
  const span = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  return (
    <figure className="host-chart">
      <figcaption>{t('today.chartTitle')}</figcaption>
      <ol className="host-chart__bars">
        {span.map((hour) => {
          const h = byHour.get(hour);
          const value = h?.medianWaitMinutes ?? 0;
          return (
            <li key={hour} className="host-chart__bar">
              <span className="host-chart__value">{h ? t('today.minutes', { count: value }) : ''}</span>
              <span className="host-chart__fill" style={{ height: `${(value / max) * 100}%` }} aria-hidden="true" />
              <span className="host-chart__hour">{`${String(hour).padStart(2, '0')}h`}</span>
              <span className="visually-hidden">{h ? t('today.barLabel', { count: h.seated, minutes: value }) : t('today.barEmpty')}</span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}
