import type { Language } from '@vez/contract';
import { useEffect, useRef } from 'react';
import { useSearchParams } from '../../../lib/router';
import { reportError } from '../../../lib/error-reporter';

/**
 * The SMS link of a login-journey venue carries `?passport=`: a single-use login token. It is
 * taken out of the address at once (replace: no history entry keeps it) and exchanged for a
 * session cookie. A failure changes nothing on the page; it is only reported.
 */
export function usePassportExchange(lng: Language): void {
  const [params, setParams] = useSearchParams();
  const used = useRef(false);
  const passport = params.get('passport');

  useEffect(() => {
    if (!passport || used.current) return;
    used.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('passport');
        return next;
      },
      { replace: true },
    );
    import('../api/passport-api')
      .then((api) => api.exchangePassport(passport, lng))
      .catch((error: unknown) => reportError(error, { area: 'passport' }));
  }, [passport, lng, setParams]);
}
