import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { errorText } from '../lib/error-text';
import { localToday } from '../lib/format';
import { useHostT } from '../lib/host-i18n';
import { QuoteChart, signed } from './quote-chart';
import { WaitChart } from './wait-chart';

/**
 * Today's figures (or another day's): counts, median and p90 wait, waits by hour, quoted against
 * actual (docs/product.md §4), and the messages sent by channel with their SMS segments (§8).
 */
export function TodayScreen({ venueId }: { venueId: string }) {
  const { t } = useHostT();
  const [{ date, tz }, setDay] = useState(localToday);
  const stats = useQuery({
    queryKey: hostKeys.stats(venueId, `${date}/${tz}`),
    queryFn: () => hostApi.stats(venueId, date, tz),
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
  const minutes = (value: number | null | undefined) =>
    value === null || value === undefined ? '—' : t('today.minutes', { count: value });

  return (
    <section aria-labelledby="today-title" className="host-today">
      <div className="host-row host-row--spread">
        <h1 id="today-title">{t('today.title')}</h1>
        <label className="host-field host-field--inline">
          <span>{t('today.date')}</span>
          <input type="date" value={date} onChange={(e) => e.target.value && setDay({ date: e.target.value, tz })} />
        </label>
      </div>
      {stats.isPending ? (
        <Spinner label={t('loading')} />
      ) : stats.isError ? (
        <p role="alert" className="host-error">
          {errorText(t, stats.error)}
        </p>
      ) : (
        <>
          <dl className="host-figures">
            {(['joined', 'seated', 'left', 'noShows', 'removed'] as const).map((key) => (
              <div key={key} className="host-figure">
                <dt>{t(`today.${key}`)}</dt>
                <dd>{stats.data[key]}</dd>
              </div>
            ))}
            <div className="host-figure">
              <dt>{t('today.median')}</dt>
              <dd>{minutes(stats.data.medianWaitMinutes)}</dd>
            </div>
            <div className="host-figure">
              <dt>{t('today.p90')}</dt>
              <dd>{minutes(stats.data.p90WaitMinutes)}</dd>
            </div>
          </dl>
          <WaitChart hours={stats.data.byHour} />
          <h2 className="host-today__subtitle">{t('today.quotesTitle')}</h2>
          {stats.data.quotes ? (
            <dl className="host-figures" data-testid="quote-figures">
              <div className="host-figure">
                <dt>{t('today.quoted')}</dt>
                <dd>{stats.data.quotes.quoted}</dd>
              </div>
              <div className="host-figure">
                <dt>{t('today.withinRange')}</dt>
                <dd>{`${Math.round(stats.data.quotes.withinRange * 100)}%`}</dd>
              </div>
              <div className="host-figure">
                <dt>{t('today.medianError')}</dt>
                <dd>{t('today.signedMinutes', { value: signed(stats.data.quotes.medianErrorMinutes) })}</dd>
              </div>
              <div className="host-figure">
                <dt>{t('today.medianAbsError')}</dt>
                <dd>{minutes(stats.data.quotes.medianAbsErrorMinutes)}</dd>
              </div>
            </dl>
          ) : null}
          <QuoteChart hours={stats.data.byHour} />
          <h2 className="host-today__subtitle">{t('today.messagesTitle')}</h2>
          {stats.data.messages ? (
            <dl className="host-figures" data-testid="message-figures">
              {stats.data.messages.map((figure) => (
                <div key={figure.channel} className="host-figure host-figure--words">
                  <dt>{t(`today.channel_${figure.channel}`)}</dt>
                  <dd>
                    {t('today.sent', { count: figure.sent })}
                    {figure.segments === null ? null : ` · ${t('today.segments', { count: figure.segments })}`}
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="host-hint">{t('today.messagesGone')}</p>
          )}
        </>
      )}
    </section>
  );
}
