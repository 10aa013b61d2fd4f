import { describe, expect, it } from 'vitest';
import { endsHoldsItself, extendedHoldEnd, holdEndsAt, isHoldOver } from './hold-window.js';

const MINUTE = 60_000;

/** docs/product.md §7, §8: the hold window's one rule. */
describe('the hold window', () => {
  it('a call holds the table for holdMinutes; 0 holds none', () => {
    expect(holdEndsAt({ holdMinutes: 10 }, 1_000)).toBe(1_000 + 10 * MINUTE);
    expect(holdEndsAt({ holdMinutes: 0 }, 1_000)).toBeNull();
  });

  it('"I need more time" extends a called party\'s window once per call', () => {
    const called = { status: 'called' as const, hold_until: 5 * MINUTE, hold_extended: 0 };
    expect(extendedHoldEnd(called, 10)).toBe(15 * MINUTE);
    expect(extendedHoldEnd({ ...called, hold_extended: 1 }, 10)).toBeUndefined();
    expect(extendedHoldEnd({ ...called, hold_until: null }, 10)).toBeUndefined();
    expect(extendedHoldEnd({ ...called, status: 'active' }, 10)).toBeUndefined();
    expect(extendedHoldEnd(called, null)).toBeUndefined();
  });

  it('is over once its end has passed, for a called party only; autoNoShow ends it', () => {
    expect(isHoldOver({ status: 'called', hold_until: 100 }, 101)).toBe(true);
    expect(isHoldOver({ status: 'called', hold_until: 100 }, 100)).toBe(false);
    expect(isHoldOver({ status: 'seated', hold_until: 100 }, 101)).toBe(false);
    expect(isHoldOver({ status: 'called', hold_until: null }, 101)).toBe(false);
    expect(endsHoldsItself({ autoNoShow: true })).toBe(true);
    expect(endsHoldsItself({ autoNoShow: false })).toBe(false);
  });
});
