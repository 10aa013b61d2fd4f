import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, joinParty } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { stores } from '../../test/stores.js';
import { updateVenue } from '../modules/venues/venues.repository.js';
import { bootHeroHtml } from './web.js';

const shell = `<!doctype html><html><head><!--vez-config--></head><body><div id="root"><div class="boot__hero"><!--vez-boot-hero--></div></div></body></html>`;
const bootImage = (html: string) => html.match(/<img class="boot__image"[^>]*>/)?.[0];
const attr = (tag: string, name: string) => tag.match(new RegExp(` ${name}="([^"]*)"`))?.[1]?.replaceAll('&amp;', '&');

/** A test app serving `shell` as its web build from a folder of its own, and a GET of a page. */
function useShellApp(store: (typeof stores)[number]) {
  let dist = '';
  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), shell);
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const t = useTestApp(store, () => ({ WEB_DIST_DIR: dist, IMAGE_BASE_URL: '/images' }));
  return { t, page: (url: string) => t.app.inject({ method: 'GET', url }) };
}

describe.each(stores)("a venue's join page on $name", (store) => {
  const { t, page } = useShellApp(store);

  it('shows one random active banner in the boot screen, marked for the app to keep', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const res = await page(`/remote-waitlist/${DEMO_BISTRO_ID}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      const img = bootImage(res.body);
      expect(img).toBeDefined();
      expect(attr(img!, 'data-venue')).toBe(DEMO_BISTRO_ID);
      const small = attr(img!, 'data-small')!;
      expect(attr(img!, 'data-large')).toBe(small); // a banner serves both sizes
      expect(attr(img!, 'src')).toBe(`${small}&w=800`);
      expect(attr(img!, 'srcset')).toBe(`${small}&w=480 480w, ${small}&w=800 800w, ${small}&w=1200 1200w`);
      seen.add(small);
    }
    // Both active banners of the demo, never the inactive one.
    expect([...seen].sort()).toEqual([
      '/images/demo/bistro-banner-1.svg?quality=70&format=webp',
      '/images/demo/bistro-banner-2.svg?quality=70&format=webp',
    ]);
  });

  it('shows the inspirational images, the large one from the wide media on', async () => {
    const res = await page(`/remote-waitlist/${DEMO_CLUB_ID}`);
    const img = bootImage(res.body)!;
    expect(attr(img, 'data-small')).toBe('/images/demo/clube-small.svg?quality=70&format=webp');
    expect(attr(img, 'data-large')).toBe('/images/demo/clube-large.svg?quality=70&format=webp');
    expect(res.body).toContain(
      '<source media="(min-width: 768px)" srcset="/images/demo/clube-large.svg?quality=70&amp;format=webp&amp;w=480 480w',
    );
  });

  it("keeps a `$&` in a venue's image path as it is, not as a replacement pattern", async () => {
    const venue = await t.db.kysely.selectFrom('venues').select('theme').where('id', '=', DEMO_CLUB_ID).executeTakeFirstOrThrow();
    const theme = JSON.parse(venue.theme);
    await updateVenue(t.db.kysely, DEMO_CLUB_ID, {
      theme: JSON.stringify({ ...theme, inspirationalImage: { small: "/x/a$&b$'.svg", large: '/x/l.svg' } }),
    });
    try {
      const img = bootImage((await page(`/remote-waitlist/${DEMO_CLUB_ID}`)).body)!;
      expect(attr(img, 'data-small')).toBe("/images/x/a$&b$'.svg?quality=70&format=webp");
    } finally {
      await updateVenue(t.db.kysely, DEMO_CLUB_ID, { theme: venue.theme });
    }
  });

  it('sends the plain shell for an unknown venue, a malformed id or a venue without images', async () => {
    for (const url of ['/remote-waitlist/6553f1a2b3c4d5e6f7a8b999', '/remote-waitlist/not-a-venue']) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(bootImage(res.body)).toBeUndefined();
      expect(res.body).toContain('<div id="root">');
    }
    const venue = await t.db.kysely.selectFrom('venues').select('theme').where('id', '=', DEMO_CLUB_ID).executeTakeFirstOrThrow();
    await updateVenue(t.db.kysely, DEMO_CLUB_ID, { theme: JSON.stringify({ ...JSON.parse(venue.theme), typeImageSpotlight: 'none' }) });
    try {
      expect(bootImage((await page(`/remote-waitlist/${DEMO_CLUB_ID}`)).body)).toBeUndefined();
    } finally {
      await updateVenue(t.db.kysely, DEMO_CLUB_ID, { theme: venue.theme });
    }
  });
});

describe.each(stores)("a party's position page on $name", (store) => {
  const { t, page } = useShellApp(store);

  it("shows the party's venue's header image in the boot screen, by its own id and by its share id", async () => {
    const { id } = await joinParty(t);
    const row = await t.db.kysely.selectFrom('entries').select('share_id').where('id', '=', id).executeTakeFirstOrThrow();
    for (const url of [`/waitlist/${id}`, `/waitlist/${row.share_id}?shared=true`]) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      const img = bootImage(res.body)!;
      expect(attr(img, 'data-venue')).toBe(DEMO_BISTRO_ID);
      expect(attr(img, 'data-small')).toMatch(/^\/images\/demo\/bistro-banner-[12]\.svg\?quality=70&format=webp$/);
    }
  });

  it('sends the plain shell for an unknown party', async () => {
    for (const url of ['/waitlist/no-such-party', '/waitlist/a\'b"c']) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(bootImage(res.body)).toBeUndefined();
      expect(res.body).toContain('<div id="root">');
    }
    // A path that is not even a valid encoding is refused, as on the join page: a 4xx, never a 5xx.
    expect((await page('/waitlist/%E0%A4%A')).statusCode).toBe(400);
  });
});

describe('boot hero markup', () => {
  it('escapes what it puts in attributes', () => {
    const html = bootHeroHtml({ venueId: 'v', small: '/i/a".svg?quality=70&format=webp', large: '/i/<b>.svg' });
    expect(html).toContain('data-small="/i/a&quot;.svg?quality=70&amp;format=webp"');
    expect(html).toContain('srcset="/i/&lt;b>.svg"');
    expect(html).not.toMatch(/"[^"=]*"[^ >=]/); // no attribute value breaks out of its quotes
  });
});
