import { describe, expect, it } from 'vitest';
import { HEADER_IMAGE_WIDTHS, imageUrl, isImagePresent, responsiveImage, spotlightImages } from './header-images.js';

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

  it('offers image-host header images at phone, tablet and desktop widths', () => {
    const url = '/images/demo/a.svg?quality=70&format=webp';
    expect(HEADER_IMAGE_WIDTHS).toEqual([480, 800, 1200]);
    expect(responsiveImage(url)).toEqual({
      src: `${url}&w=800`,
      srcSet: `${url}&w=480 480w, ${url}&w=800 800w, ${url}&w=1200 1200w`,
    });
  });

  it('keeps one size for the placeholder, which the image host does not serve', () => {
    const placeholder = 'data:image/svg+xml,%3csvg%3e%3c/svg%3e';
    expect(responsiveImage(placeholder)).toEqual({ src: placeholder });
    const { small } = spotlightImages(theme('none'), '/images', placeholder);
    expect(responsiveImage(small)).toEqual({ src: placeholder });
  });

  it('gives a banner spotlight the same width variants for both sizes', () => {
    const { small, large } = spotlightImages(theme('banners'), '/images', 'P', () => 0.99);
    expect(responsiveImage(small).srcSet).toContain('/images/demo/b.svg?quality=70&format=webp&w=480 480w');
    expect(responsiveImage(large)).toEqual(responsiveImage(small));
  });
});
