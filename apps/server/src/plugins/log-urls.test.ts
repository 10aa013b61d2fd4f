import { describe, expect, it } from 'vitest';
import { maskUrl } from './log-urls.js';

const venue = '6553f1a2b3c4d5e6f7a8b901';
const entry = 'Ab3_x-9ZqW0eRt5yUi7oP1';

describe('maskUrl (docs/product.md §3: no entry id, share id or login token in logs)', () => {
  it.each([
    [`/waitlist/${entry}`, '/waitlist/:masked'],
    [`/waitlist/short?shared=true`, '/waitlist/:masked?shared=true'],
    [`/api/waitlists/${entry}/position`, '/api/waitlists/:masked/position'],
    [`/api/waitlists/${entry}/${venue}/cancel`, `/api/waitlists/:masked/${venue}/cancel`],
    [`/api/waitlists/${venue}/create`, `/api/waitlists/${venue}/create`],
    [`/api/waitlists/${entry}/events`, '/api/waitlists/:masked/events'],
    [`/api/host/venues/${venue}/entries/${entry}/call`, `/api/host/venues/${venue}/entries/:masked/call`],
    [`/remote-waitlist/${venue}?passport=abc&lang=en`, `/remote-waitlist/${venue}?passport=:masked&lang=en`],
    [`/anything/${'x'.repeat(40)}/more?t=${'y'.repeat(30)}`, '/anything/:masked/more?t=:masked'],
    ['/api/health', '/api/health'],
    ['/images/demo/menu.svg?w=640&q=75', '/images/demo/menu.svg?w=640&q=75'],
  ])('%s → %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });
});
