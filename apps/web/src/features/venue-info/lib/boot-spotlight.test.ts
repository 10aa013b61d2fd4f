import { describe, expect, it } from 'vitest';
import { bootBannerOf, keepBootSpotlight, keptBootSpotlight, readBootSpotlight, withBootBanner } from './boot-spotlight';
import { defaultVenueInfo } from './venue-info';

const VENUE = '6553f1a2b3c4d5e6f7a8b901';
const A = '/images/demo/a.svg?quality=70&format=webp';
const B = '/images/demo/b.svg?quality=70&format=webp';
const theme = {
  typeImageSpotlight: 'banners',
  banners: {
    list: [
      { isActive: true, imageUrl: '/demo/a.svg' },
      { isActive: false, imageUrl: '/demo/b.svg' },
    ],
  },
};

function bootScreen(attrs: string): ParentNode {
  const root = document.createElement('div');
  root.innerHTML = `<div class="boot__hero"><picture><img class="boot__image" ${attrs}></picture></div>`;
  return root;
}

describe('the boot screen header image', () => {
  it('is read only for the venue it was made for', () => {
    const root = bootScreen(`data-venue="${VENUE}" data-small="${A}" data-large="${A}"`);
    expect(readBootSpotlight(VENUE, root)).toEqual({ venueId: VENUE, small: A, large: A });
    expect(readBootSpotlight('6553f1a2b3c4d5e6f7a8b902', root)).toBeUndefined();
    expect(readBootSpotlight(VENUE, bootScreen(`data-venue="${VENUE}"`))).toBeUndefined();
    expect(readBootSpotlight(VENUE, document.createElement('div'))).toBeUndefined();
  });

  it('is kept once React has replaced the boot screen, and shown only on the page it came with', () => {
    const path = window.location.pathname;
    keepBootSpotlight(bootScreen(`data-venue="${VENUE}" data-small="${A}" data-large="${A}"`), path);
    try {
      const empty = document.createElement('div');
      expect(readBootSpotlight(VENUE, empty)).toEqual({ venueId: VENUE, small: A, large: A });
      expect(readBootSpotlight('6553f1a2b3c4d5e6f7a8b902', empty)).toBeUndefined();
      expect(keptBootSpotlight()).toEqual({ venueId: VENUE, small: A, large: A });
      keepBootSpotlight(bootScreen(`data-venue="${VENUE}" data-small="${A}" data-large="${A}"`), `${path}-elsewhere`);
      expect(keptBootSpotlight()).toBeUndefined();
    } finally {
      keepBootSpotlight(document.createElement('div'), path);
    }
    expect(keptBootSpotlight()).toBeUndefined();
  });

  it('is adopted as the random banner only when it is an active banner of the theme', () => {
    expect(bootBannerOf(theme, '/images', { venueId: VENUE, small: A, large: A })).toEqual({ small: A, large: A });
    expect(bootBannerOf(theme, '/images', { venueId: VENUE, small: B, large: B })).toBeUndefined(); // inactive
    expect(
      bootBannerOf({ ...theme, typeImageSpotlight: 'inspirational' }, '/images', { venueId: VENUE, small: A, large: A }),
    ).toBeUndefined();
    expect(bootBannerOf(theme, '/images', undefined)).toBeUndefined();
  });

  it("replaces the banner of the session's kept venue info, and nothing else", () => {
    const kept = {
      ...defaultVenueInfo(VENUE, 'https://r.example/', 'P'),
      typeImageSpotlight: 'banners',
      smallBackgroundImage: B,
      largeBackgroundImage: B,
    };
    expect(withBootBanner(kept, { venueId: VENUE, small: A, large: A })).toEqual({
      ...kept,
      smallBackgroundImage: A,
      largeBackgroundImage: A,
    });
    const inspirational = { ...kept, typeImageSpotlight: 'inspirational' };
    expect(withBootBanner(inspirational, { venueId: VENUE, small: A, large: A })).toBe(inspirational);
    expect(withBootBanner(kept, undefined)).toBe(kept);
  });
});
