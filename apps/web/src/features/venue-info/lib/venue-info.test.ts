import { describe, expect, it } from 'vitest';
import { isOnlyThemeProblem, venueNameIn } from './venue-info';

describe('venue info (spec sections 3 and 4)', () => {
  it('names the venue per language with the Portuguese fallback', () => {
    expect(venueNameIn({ venueName: { pt: 'Bistrô', en: 'Bistro' } }, 'en-US')).toBe('Bistro');
    expect(venueNameIn({ venueName: { pt: 'Clube' } }, 'en')).toBe('Clube');
  });

  it('ignores a theme-only failure', () => {
    expect(isOnlyThemeProblem(['THEME_NOT_FOUND'])).toBe(true);
    expect(isOnlyThemeProblem(['THEME_NOT_FOUND', 'VENUE_INFO_NOT_FOUND'])).toBe(false);
    expect(isOnlyThemeProblem([])).toBe(false);
  });
});
