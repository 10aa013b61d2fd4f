import { RESEND_COUNTDOWN_START, RESEND_TICK_MS } from '@vez/contract';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useResendCountdown } from './use-resend-countdown';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('resend countdown (spec sections 4 and 9)', () => {
  it('starts at 60 and ticks once per half second', () => {
    expect(RESEND_COUNTDOWN_START).toBe(60);
    expect(RESEND_TICK_MS).toBe(500);
    const { result } = renderHook(() => useResendCountdown());
    expect(result.current).toMatchObject({ remaining: 60, canResend: false });
    act(() => vi.advanceTimersByTime(499));
    expect(result.current.remaining).toBe(60);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.remaining).toBe(59);
    act(() => vi.advanceTimersByTime(500 * 10));
    expect(result.current.remaining).toBe(49);
  });

  it('allows a resend at zero and stops there', () => {
    const { result } = renderHook(() => useResendCountdown());
    act(() => vi.advanceTimersByTime(500 * 59));
    expect(result.current).toMatchObject({ remaining: 1, canResend: false });
    act(() => vi.advanceTimersByTime(500));
    expect(result.current).toMatchObject({ remaining: 0, canResend: true });
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current.remaining).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('restarts from 60 (a channel toggle or a resend), also midway', () => {
    const { result } = renderHook(() => useResendCountdown());
    act(() => vi.advanceTimersByTime(500 * 20 + 250));
    expect(result.current.remaining).toBe(40);
    act(() => result.current.restart());
    expect(result.current.remaining).toBe(60);
    // A fresh half second after the restart, not the old interval's phase.
    act(() => vi.advanceTimersByTime(400));
    expect(result.current.remaining).toBe(60);
    act(() => vi.advanceTimersByTime(100));
    expect(result.current.remaining).toBe(59);
    act(() => vi.advanceTimersByTime(500 * 59));
    expect(result.current.canResend).toBe(true);
    act(() => result.current.restart());
    expect(result.current).toMatchObject({ remaining: 60, canResend: false });
    act(() => vi.advanceTimersByTime(500));
    expect(result.current.remaining).toBe(59);
  });
});
