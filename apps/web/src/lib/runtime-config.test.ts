import { describe, expect, it, vi } from 'vitest';

describe('runtime config', () => {
  it('reads the meta tag the server injects, keeping defaults for what it lacks', async () => {
    vi.resetModules();
    document.head.innerHTML =
      '<meta name="vez-config" content=\'{"imageBaseUrl":"https://img.example","sentryDsn":"","smartLinkBaseUrl":"https://r.example/","extra":1}\'>';
    const { getRuntimeConfig } = await import('./runtime-config');
    expect(getRuntimeConfig()).toEqual({
      imageBaseUrl: 'https://img.example',
      sentryDsn: '',
      smartLinkBaseUrl: 'https://r.example/',
      apiBaseUrl: '/api',
    });
  });

  it('falls back to same-origin defaults without the tag', async () => {
    vi.resetModules();
    document.head.innerHTML = '<meta name="vez-config" content="not json">';
    const { getRuntimeConfig } = await import('./runtime-config');
    expect(getRuntimeConfig().imageBaseUrl).toBe('/images');
  });
});
