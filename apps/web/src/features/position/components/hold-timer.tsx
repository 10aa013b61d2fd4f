import { useEffect, useState } from 'react';
import { addTranslations } from '../../../lib/i18n';
import type { TextFn } from '../hooks/use-venue-text';

// Only a called party sees these: they come with this chunk, not with every position page (budget 120 KB).
addTranslations({
  pt: {
    position: {
      holdLeft: 'Sua mesa fica reservada por {{time}}',
      holdMinutes_one: 'Sua mesa fica reservada por mais {{count}} minuto',
      holdMinutes_other: 'Sua mesa fica reservada por mais {{count}} minutos',
      holdOver: 'O tempo de reserva acabou: fale com a recepção.',
      calledAgain_one: 'O restaurante chamou você de novo ({{count}}ª chamada).',
      calledAgain_other: 'O restaurante chamou você de novo ({{count}}ª chamada).',
    },
  },
  en: {
    position: {
      holdLeft: 'Your table is held for {{time}}',
      holdMinutes_one: 'Your table is held for {{count}} more minute',
      holdMinutes_other: 'Your table is held for {{count}} more minutes',
      holdOver: 'The hold time is over: please talk to the host.',
      calledAgain_one: 'The venue called you again (call {{count}}).',
      calledAgain_other: 'The venue called you again (call {{count}}).',
    },
  },
});

/**
 * How long the table is still held for a called party (docs/product.md §8): mm:ss each second on
 * screen, and for screen readers once a minute (a polite region that changes only then).
 */
export default function HoldTimer({ until, calls, text }: { until: string; calls: number; text: TextFn }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const left = Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    <div className="hold-timer" data-testid="hold-timer">
      {calls > 1 && <p>{text('position.calledAgain', { count: calls })}</p>}
      <p aria-hidden="true">
        {left > 0 ? text('position.holdLeft', { time: `${pad(Math.floor(left / 60))}:${pad(left % 60)}` }) : text('position.holdOver')}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {left > 0 ? text('position.holdMinutes', { count: Math.ceil(left / 60) }) : text('position.holdOver')}
      </p>
    </div>
  );
}
