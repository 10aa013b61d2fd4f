import { useEffect, useRef, useState } from 'react';
import type { LiveState } from '../hooks/use-live-queue';
import { useHostT } from '../lib/host-i18n';

const BACK_NOTE_MS = 5000;

/**
 * Says in words what the badge says in a colour (docs/decisions/032-the-door-on-a-busy-night.md):
 * offline, the queue may be stale and taps are not sent; back, for a few seconds, that the queue is
 * live again. A polite status region, so screen readers hear both.
 */
export function ConnectionNote({ live }: { live: LiveState }) {
  const { t } = useHostT();
  const wasOffline = useRef(false);
  const [back, setBack] = useState(false);
  useEffect(() => {
    if (live === 'offline') {
      wasOffline.current = true;
      setBack(false);
      return;
    }
    if (live !== 'live' || !wasOffline.current) return;
    wasOffline.current = false;
    setBack(true);
    const timer = setTimeout(() => setBack(false), BACK_NOTE_MS);
    return () => clearTimeout(timer);
  }, [live]);
  const text = live === 'offline' ? t('live.offlineNote') : back ? t('live.back') : '';
  return (
    <p
      role="status"
      className={`host-connection${text ? ` host-connection--${live === 'offline' ? 'offline' : 'back'}` : ''}`}
      data-testid="connection-note"
    >
      {text}
    </p>
  );
}
