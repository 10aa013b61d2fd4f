import { RESEND_COUNTDOWN_START, RESEND_TICK_MS } from '@vez/contract';
import { useCallback, useEffect, useState } from 'react';

/**
 * The resend countdown of docs/product.md §14: starts at 60 and ticks about every half second; resend
 * is allowed at zero. `restart` sets it back to the start (a new code was sent, or the channel
 * toggled). The interval runs only while there is something to count.
 */
export function useResendCountdown(): { remaining: number; canResend: boolean; restart: () => void } {
  const [remaining, setRemaining] = useState(RESEND_COUNTDOWN_START);
  const [round, setRound] = useState(0);
  const counting = remaining > 0;

  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => setRemaining((n) => Math.max(0, n - 1)), RESEND_TICK_MS);
    return () => clearInterval(timer);
    // `round` restarts the interval's phase on every restart, so a tick never comes early.
  }, [counting, round]);

  const restart = useCallback(() => {
    setRemaining(RESEND_COUNTDOWN_START);
    setRound((r) => r + 1);
  }, []);

  return { remaining, canResend: remaining === 0, restart };
}
