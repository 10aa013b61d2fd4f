import { type Language, type PositionResponse, StreamMessage, dinerStreamPath } from '@vez/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { reportError } from '../../../lib/error-reporter';
import { getRuntimeConfig } from '../../../lib/runtime-config';
import { positionKey } from '../lib/position-key';

/** Errors in a row without a message before the page gives up on the stream and polls. */
export const MAX_STREAM_ERRORS = 3;
/** While polling, how long before the page tries a stream again. */
export const STREAM_RETRY_MS = 60_000;

interface StreamOptions {
  waitlistId: string;
  lng: Language;
  /**
   * The entry's venue (the page has it before the stream is enabled): sent as `venue`, which the
   * server ignores and a reverse proxy hashes on, so every stream of a venue lands on the same
   * instance (docs/deploy.md, "nginx: what streams need").
   */
  venueId: string | undefined;
  enabled: boolean;
  /** Must be stable (a state setter). */
  onPollingChange: (isPolling: boolean) => void;
  /** Whether the stream is open (false from its first error until it opens again); stable too. */
  onLiveChange: (isLive: boolean) => void;
}

/**
 * Follows GET /api/waitlists/{id}/events (Server-Sent Events). Every `position` message is the
 * same shape as GET /position and goes straight into the query cache: no second store. Every
 * (re)connect starts with a snapshot; a reconnect also refetches, so nothing missed while offline
 * survives. Without EventSource, or after repeated errors, the page polls (usePosition) and
 * tries the stream again later. Closed on unmount and once the entry is final.
 */
export function usePositionStream({ waitlistId, lng, venueId, enabled, onPollingChange, onLiveChange }: StreamOptions): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!enabled) return;
    if (typeof EventSource === 'undefined') {
      onPollingChange(true);
      return;
    }
    const key = positionKey(waitlistId, lng);
    // A venue id is hexadecimal (ids.ts in the contract): nothing to encode. The page has its
    // position, and so its venue, before the stream is enabled.
    const url = `${getRuntimeConfig().apiBaseUrl}${dinerStreamPath(encodeURIComponent(waitlistId))}?lng=${lng}&venue=${venueId}`;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let errors = 0;
    let hasOpened = false;

    const onMessage = (event: MessageEvent<string>) => {
      errors = 0;
      try {
        queryClient.setQueryData<PositionResponse>(key, JSON.parse(event.data) as PositionResponse);
      } catch (error) {
        reportError(error, { area: 'position-stream', waitlistId });
      }
    };
    const connect = () => {
      const current = new EventSource(url);
      source = current;
      current.addEventListener(StreamMessage.position, onMessage as EventListener);
      current.addEventListener('open', () => {
        onPollingChange(false);
        onLiveChange(true);
        if (hasOpened) void queryClient.invalidateQueries({ queryKey: key, exact: true });
        hasOpened = true;
      });
      current.addEventListener('error', () => {
        errors += 1;
        // Said at once (docs/product.md §12.7): the browser retries by itself, the page is not live meanwhile.
        onLiveChange(false);
        // CLOSED: the browser will not retry by itself (an HTTP error); too many errors: flapping.
        if (current.readyState !== EventSource.CLOSED && errors < MAX_STREAM_ERRORS) return;
        current.close();
        onPollingChange(true);
        retry = setTimeout(() => {
          errors = 0;
          connect();
        }, STREAM_RETRY_MS);
      });
    };
    // The page already has its data (GET /position); the stream opens once the page has loaded and
    // the main thread is idle, so it stays out of the first paint. Its snapshot covers the gap.
    const cancelStart = whenPageIdle(connect);
    // Back online: the stream again now, not after the browser's retry delay or STREAM_RETRY_MS.
    const onOnline = () => {
      if (!source || source.readyState === EventSource.OPEN) return;
      source.close();
      clearTimeout(retry);
      errors = 0;
      connect();
    };
    window.addEventListener('online', onOnline);

    return () => {
      cancelStart();
      window.removeEventListener('online', onOnline);
      source?.close();
      clearTimeout(retry);
      onPollingChange(false);
    };
  }, [enabled, waitlistId, lng, venueId, queryClient, onPollingChange, onLiveChange]);
}

/** Runs `start` after the window's load event and an idle moment; answers a cancel function. */
function whenPageIdle(start: () => void): () => void {
  let cancelled = false;
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(start, { timeout: 1000 });
    else timer = setTimeout(start, 0);
  };
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', run);
    if (idle !== undefined) window.cancelIdleCallback(idle);
    clearTimeout(timer);
  };
}
