import { COPIED_NOTICE_MS } from '@vez/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { paths } from '../../../config/paths';
import { reportError } from '../../../lib/error-reporter';

/** The read-only link of docs/product.md §3: the share id, never the diner's own id. */
export function sharedPositionUrl(origin: string, shareId: string): string {
  return `${origin}${paths.position.href(shareId)}?shared=true`;
}

const isAbort = (error: unknown) => typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';

/**
 * Share: the native share sheet where there is one, else the link goes to the clipboard and the
 * copied notice shows for COPIED_NOTICE_MS. A diner who closes the share sheet sees nothing; any
 * other failure sets `failed` (its catalogue message) and is reported.
 */
export function useSharePosition(shareId: string | null, title: string) {
  const [isCopied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const share = useCallback(async () => {
    try {
      if (!shareId) throw new Error('No share id');
      const url = sharedPositionUrl(window.location.origin, shareId);
      if (typeof navigator.share === 'function') {
        await navigator.share({ title, url });
        return;
      }
      await navigator.clipboard.writeText(url);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_NOTICE_MS);
    } catch (error) {
      if (isAbort(error)) return;
      reportError(error, { area: 'share' });
      setFailed(true);
    }
  }, [shareId, title]);

  return { share, isCopied, failed, dismissFailure: () => setFailed(false) };
}
