import { COPIED_NOTICE_MS } from '@vez/contract';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedPositionUrl, useSharePosition } from './use-share-position';

const SHARE_ID = 'BBBBBBBBBBBBBBBBBBBBBB';
const url = sharedPositionUrl(window.location.origin, SHARE_ID);

function stubNavigator(patch: { share?: unknown; clipboard?: unknown }) {
  for (const [key, value] of Object.entries(patch)) {
    Object.defineProperty(navigator, key, { value, configurable: true, writable: true });
  }
}

afterEach(() => {
  stubNavigator({ share: undefined, clipboard: undefined });
  vi.useRealTimers();
});

describe('useSharePosition', () => {
  it('builds the read-only link with ?shared=true from the share id', () => {
    expect(sharedPositionUrl('https://vez.example', SHARE_ID)).toBe(`https://vez.example/waitlist/${SHARE_ID}?shared=true`);
  });

  it('opens the native share sheet where there is one', async () => {
    const share = vi.fn().mockResolvedValue(undefined);
    stubNavigator({ share });
    const { result } = renderHook(() => useSharePosition(SHARE_ID, 'My place'));
    await act(() => result.current.share());
    expect(share).toHaveBeenCalledWith({ title: 'My place', url });
    expect(result.current.failed).toBe(false);
    expect(result.current.isCopied).toBe(false);
  });

  it('stays silent when the diner closes the share sheet', async () => {
    stubNavigator({ share: vi.fn().mockRejectedValue(new DOMException('Share canceled', 'AbortError')) });
    const { result } = renderHook(() => useSharePosition(SHARE_ID, 'My place'));
    await act(() => result.current.share());
    expect(result.current.failed).toBe(false);
  });

  it('reports any other share failure', async () => {
    stubNavigator({ share: vi.fn().mockRejectedValue(new DOMException('Not allowed', 'NotAllowedError')) });
    const { result } = renderHook(() => useSharePosition(SHARE_ID, 'My place'));
    await act(() => result.current.share());
    expect(result.current.failed).toBe(true);
    act(() => result.current.dismissFailure());
    expect(result.current.failed).toBe(false);
  });

  it('copies the link without a share sheet and shows the notice for COPIED_NOTICE_MS', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn().mockResolvedValue(undefined);
    stubNavigator({ share: undefined, clipboard: { writeText } });
    const { result } = renderHook(() => useSharePosition(SHARE_ID, 'My place'));
    await act(() => result.current.share());
    expect(writeText).toHaveBeenCalledWith(url);
    expect(result.current.isCopied).toBe(true);
    act(() => vi.advanceTimersByTime(COPIED_NOTICE_MS - 1));
    expect(result.current.isCopied).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.isCopied).toBe(false);
  });

  it('fails when there is neither a share sheet nor a clipboard', async () => {
    stubNavigator({ share: undefined, clipboard: undefined });
    const { result } = renderHook(() => useSharePosition(SHARE_ID, 'My place'));
    await act(() => result.current.share());
    expect(result.current.failed).toBe(true);
  });
});
