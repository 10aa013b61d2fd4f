import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { positionKey } from '../lib/position-key';
import { MAX_STREAM_ERRORS, STREAM_RETRY_MS, usePositionStream } from './use-position-stream';

/**
 * jsdom has no EventSource. This stand-in records what the hook does with one: the browser's
 * real EventSource against the real server is exercised by e2e/position.e2e.ts.
 */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  private listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(type: string, init: { data?: string } = {}) {
    const event = init.data === undefined ? new Event(type) : new MessageEvent(type, { data: init.data });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

const ID = 'AAAAAAAAAAAAAAAAAAAAAA';
/** The stream opens after the page's load and an idle moment: let that moment pass. */
const idle = () => act(async () => void (await new Promise((resolve) => setTimeout(resolve, 5))));
const latest = () => FakeEventSource.instances.at(-1) as FakeEventSource;

const VENUE = '6553f1a2b3c4d5e6f7a8b901';

function setup(venueId = VENUE) {
  const client = new QueryClient();
  const onPolling = vi.fn();
  const onLive = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(
    (props: { enabled: boolean }) =>
      usePositionStream({ waitlistId: ID, lng: 'en', venueId, enabled: props.enabled, onPollingChange: onPolling, onLiveChange: onLive }),
    {
      wrapper,
      initialProps: { enabled: true },
    },
  );
  return { client, onPolling, hook };
}

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('usePositionStream', () => {
  it('opens the diner stream once the page is idle and writes each position message into the same query cache', async () => {
    const { client } = setup();
    expect(FakeEventSource.instances).toHaveLength(0);
    await idle();
    // The venue rides along for a proxy that keeps a venue's streams on one instance (docs/deploy.md).
    expect(latest().url).toBe(`/api/waitlists/${ID}/events?lng=en&venue=${VENUE}`);
    const snapshot = { waitlist: { status: 'active', pos: 4 }, waitlistSettings: {} };
    act(() => latest().emit('position', { data: JSON.stringify(snapshot) }));
    expect(client.getQueryData(positionKey(ID, 'en'))).toEqual(snapshot);
    act(() => latest().emit('position', { data: JSON.stringify({ ...snapshot, waitlist: { status: 'called', pos: 0 } }) }));
    expect(client.getQueryData(positionKey(ID, 'en'))).toMatchObject({ waitlist: { status: 'called' } });
  });

  it('refetches after a reconnect, not on the first open', async () => {
    const { client } = setup();
    await idle();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    act(() => latest().emit('open'));
    expect(invalidate).not.toHaveBeenCalled();
    act(() => latest().emit('error')); // the browser reconnects by itself (CONNECTING)
    act(() => latest().emit('open'));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: positionKey(ID, 'en'), exact: true });
  });

  it('polls when the stream is refused, and tries the stream again later', () => {
    vi.useFakeTimers();
    const { onPolling } = setup();
    act(() => vi.advanceTimersByTime(10));
    const first = latest();
    first.readyState = FakeEventSource.CLOSED; // an HTTP error: no automatic retry
    act(() => first.emit('error'));
    expect(onPolling).toHaveBeenLastCalledWith(true);
    act(() => vi.advanceTimersByTime(STREAM_RETRY_MS));
    expect(FakeEventSource.instances).toHaveLength(2);
    act(() => latest().emit('open'));
    expect(onPolling).toHaveBeenLastCalledWith(false);
  });

  it(`polls after ${MAX_STREAM_ERRORS} errors in a row without a message`, async () => {
    const { onPolling } = setup();
    await idle();
    for (let i = 0; i < MAX_STREAM_ERRORS - 1; i++) act(() => latest().emit('error'));
    expect(onPolling).not.toHaveBeenCalledWith(true);
    act(() => latest().emit('error'));
    expect(onPolling).toHaveBeenLastCalledWith(true);
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
  });

  it('polls at once without EventSource', () => {
    vi.stubGlobal('EventSource', undefined);
    const { onPolling } = setup();
    expect(onPolling).toHaveBeenCalledWith(true);
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it('closes the stream on unmount and when the entry is final', async () => {
    const { hook } = setup();
    await idle();
    const first = latest();
    hook.rerender({ enabled: false });
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    hook.rerender({ enabled: true });
    await idle();
    const second = latest();
    expect(second).not.toBe(first);
    hook.unmount();
    expect(second.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('never opens a stream when unmounted before the page was idle', async () => {
    const { hook } = setup();
    hook.unmount();
    await idle();
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
