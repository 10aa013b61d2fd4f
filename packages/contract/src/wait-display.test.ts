import { describe, expect, it } from 'vitest';
import { WIDE_RANGE_MINUTES, waitDisplay } from './wait-display.js';

describe('waitDisplay (docs/product.md §4.3a: a range wider than 45 minutes reads "more than N min")', () => {
  it('shows a range in whole minutes, rounded outwards', () => {
    expect(waitDisplay({ low: 7.6, high: 19.2 })).toEqual({ kind: 'range', low: 7, high: 20 });
  });
  it('shows one figure when the ends meet', () => {
    expect(waitDisplay({ low: 5, high: 5 })).toEqual({ kind: 'about', minutes: 5 });
  });
  it('keeps a range exactly 45 minutes wide and shows a wider one by its lower end', () => {
    expect(WIDE_RANGE_MINUTES).toBe(45);
    expect(waitDisplay({ low: 20, high: 65 })).toEqual({ kind: 'range', low: 20, high: 65 });
    expect(waitDisplay({ low: 20, high: 65.5 })).toEqual({ kind: 'moreThan', minutes: 20 });
  });
});
