import type { HostEntry } from '@vez/contract';
import { bandLabels, countByBand } from '../lib/format';
import { useHostT } from '../lib/host-i18n';

/** Parties (and people) per table-size band: what tables the door needs next. */
export function BandCounts({ entries, compact = false }: { entries: readonly HostEntry[]; compact?: boolean }) {
  const { t } = useHostT();
  const labels = bandLabels();
  const counts = countByBand(entries);
  return (
    <dl className="host-bands" aria-label={t('bands.label')}>
      {counts.map((count, i) => (
        <div key={labels[i]} className="host-bands__item">
          <dt>{t('bands.band', { range: labels[i] })}</dt>
          {/* A phone: the number of parties alone, so the four bands keep one row. */}
          <dd>
            {compact ? count.parties : t('bands.parties', { count: count.parties })}
            {!compact && <small>{t('bands.people', { count: count.people })}</small>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
