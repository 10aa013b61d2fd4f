import type { HostQueueResponse, HostStreamData, StreamMessageName, VenueChannelEvent } from '@vez/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { hostApi, hostStreamUrl } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { useOnline } from './use-online';

// A literal checked against the contract's names: importing the value would pull zod into this chunk.
const QUEUE_MESSAGE = 'queue' satisfies StreamMessageName;

export type LiveState = 'connecting' | 'live' | 'offline';

/**
 * The venue's queue: one GET, then the host stream writes every `queue` message into the same
 * cache entry the screen reads (docs/ARCHITECTURE.md, habit 7). EventSource reconnects by itself; each reconnect
 * starts with a fresh snapshot, so nothing is lost while offline.
 *
 * The badge never says live when it is not (docs/decisions/032-the-door-on-a-busy-night.md): the
 * browser's offline event closes the stream and says offline at once (a stream can sit silent for
 * a long time before its socket errors); the online event opens a new one, live again with its
 * first snapshot. A stream error says reconnecting until a message arrives.
 */
export function useLiveQueue(venueId: string, onEvents?: (events: VenueChannelEvent[]) => void) {
  const client = useQueryClient();
  const [live, setLive] = useState<LiveState>('connecting');
  const online = useOnline();
  // The latest listener, without reopening the stream when it changes.
  const listener = useRef(onEvents);
  listener.current = onEvents;
  const query = useQuery({ queryKey: hostKeys.queue(venueId), queryFn: () => hostApi.queue(venueId), staleTime: Number.POSITIVE_INFINITY });

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    if (!online) {
      setLive('offline');
      return;
    }
    setLive('connecting');
    const source = new EventSource(hostStreamUrl(venueId), { withCredentials: true });
    source.onopen = () => setLive('live');
    source.onerror = () => {
      setLive(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
      // A closed stream usually means the session ended: let the session query find out.
      if (source.readyState === EventSource.CLOSED) void client.invalidateQueries({ queryKey: hostKeys.me });
    };
    source.addEventListener(QUEUE_MESSAGE, (message) => {
      const data = JSON.parse((message as MessageEvent<string>).data) as HostStreamData;
      const next: HostQueueResponse = { venueId, waitlist: data.waitlist, entries: data.entries };
      client.setQueryData(hostKeys.queue(venueId), next);
      setLive('live');
      if (data.events.length > 0) listener.current?.(data.events);
    });
    return () => source.close();
  }, [client, venueId, online]);

  return { ...query, live: online ? live : 'offline' };
}

/** A clock for "waited N min" that ticks every 30 seconds. */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
