import { describe, expect, it } from 'vitest';
import { imageUrl, isImagePresent, spotlightImages } from './images';
import { isOnlyThemeProblem, venueNameIn } from './venue-info';

const theme = (typeImageSpotlight: string) => ({
  typeImageSpotlight,
  inspirationalImage: { small: '/demo/s.svg', large: 'undefined' },
  banners: {
    list: [
      { isActive: false, imageUrl: '/demo/old.svg' },
      { isActive: true, imageUrl: '/demo/a.svg' },
      { isActive: true, imageUrl: '/demo/b.svg' },
    ],
  },
});

describe('venue imagery (spec sections 3 and 4)', () => {
  it('builds image URLs with quality 70 and webp', () => {
    expect(imageUrl('/images', '/demo/a.svg')).toBe('/images/demo/a.svg?quality=70&format=webp');
    expect(imageUrl('https://img.example/', 'x.png')).toBe('https://img.example/x.png?quality=70&format=webp');
  });

  it("counts a path only when non-empty and not 'undefined'", () => {
    expect(isImagePresent('')).toBe(false);
    expect(isImagePresent('undefined')).toBe(false);
    expect(isImagePresent(undefined)).toBe(false);
    expect(isImagePresent('/a.svg')).toBe(true);
  });

  it('uses the inspirational images, the placeholder standing in for a missing one', () => {
    expect(spotlightImages(theme('inspirational'), '/images', 'P')).toEqual({
      small: '/images/demo/s.svg?quality=70&format=webp',
      large: 'P',
    });
  });

  it('picks one random active banner for both sizes', () => {
    expect(spotlightImages(theme('banners'), '/images', 'P', () => 0)).toEqual({
      small: '/images/demo/a.svg?quality=70&format=webp',
      large: '/images/demo/a.svg?quality=70&format=webp',
    });
    expect(spotlightImages(theme('banners'), '/images', 'P', () => 0.99).small).toBe('/images/demo/b.svg?quality=70&format=webp');
  });

  it('uses the placeholder for any other spotlight type', () => {
    expect(spotlightImages(theme('video'), '/images', 'P')).toEqual({ small: 'P', large: 'P' });
  });

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
