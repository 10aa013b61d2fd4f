import { useEffect, useState } from 'react';
import { useHostT } from '../lib/host-i18n';

/** mm:ss until `until`, never negative. */
export function mmss(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/**
 * How long a called party's table is still held (docs/product.md §8), counted down each second;
 * "late" once it ran out. A timer role: screen readers do not read every second.
 */
export function HoldCountdown({ until, onLate }: { until: string; onLate?: (late: boolean) => void }) {
  const { t } = useHostT();
  const end = Date.parse(until);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const late = now >= end;
  useEffect(() => onLate?.(late), [late, onLate]);
  return (
    <span role="timer" className={`host-hold${late ? ' host-hold--late' : ''}`} data-testid="hold-countdown">
      {late ? t('hold.late') : t('hold.left', { time: mmss(end - now) })}
    </span>
  );
}
