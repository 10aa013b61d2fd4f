import { describe, expect, it } from 'vitest';
import { isGettingClose } from './getting-close.js';

/** The getting-close rule (docs/product.md §8), which the server's message and the page's notice share. */
describe('isGettingClose', () => {
  const venue = { gettingCloseAt: 3, gettingCloseMinutes: 15 };
  it.each([
    [1, null, true],
    [3, null, true],
    [4, null, false],
    [0, null, false],
    [2, 15, true],
    [2, 15.5, false],
    [2, 40, false],
    [3, 5, true],
    [4, 5, false],
  ])('place %i, range top %s: %s', (place, high, expected) => {
    expect(isGettingClose(venue, place, high)).toBe(expected);
  });
  it('gettingCloseAt 0 tells no one', () => {
    expect(isGettingClose({ gettingCloseAt: 0, gettingCloseMinutes: 15 }, 1, null)).toBe(false);
  });
});
