import { type PositionResponse } from '@vez/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../lib/i18n';
import { fetchPosition } from '../api/position-api';
import { positionKey } from '../lib/position-key';
import { isFinalView, toPositionView } from '../lib/position-view';
import { usePositionStream } from './use-position-stream';

/** How often the page asks again when no stream can be opened. */
export const POLL_INTERVAL_MS = 15_000;

/**
 * The entry's position, kept live: one query in the shared cache, written by GET /position and by
 * every `position` message of the entry's stream; polled instead while no stream can be opened.
 * Stops listening once the entry is seated or gone.
 */
export function usePosition(waitlistId: string) {
  const { i18n } = useTranslation();
  const lng = currentLanguage(i18n.language);
  const [isPolling, setPolling] = useState(false);
  const [isStreamOpen, setStreamOpen] = useState(true);
  const query = useQuery<PositionResponse>({
    queryKey: positionKey(waitlistId, lng),
    queryFn: ({ signal }) => fetchPosition(waitlistId, lng, signal),
    enabled: Boolean(waitlistId),
    // The stream keeps it fresh; a change of language keeps showing the old answer meanwhile.
    staleTime: Number.POSITIVE_INFINITY,
    // Only the same entry's answer stands in (never another entry's, when the id changes in place).
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === waitlistId ? previous : undefined),
    refetchInterval: (q) => (isPolling && !isFinalData(q.state.data) ? POLL_INTERVAL_MS : false),
  });
  const isLive = Boolean(query.data) && !isFinalData(query.data);
  usePositionStream({
    waitlistId,
    lng,
    venueId: query.data?.waitlist.venue,
    enabled: isLive,
    onPollingChange: setPolling,
    onLiveChange: setStreamOpen,
  });
  // Live: the stream is open, or the page polls and its last poll answered (docs/product.md §12.7).
  const isLiveFeed = isPolling ? !query.isError : isStreamOpen;
  return { ...query, lng, isPolling, isLiveFeed };
}

const isFinalData = (data: PositionResponse | undefined) =>
  data !== undefined && isFinalView(toPositionView(data, { isSharedLink: false }));
