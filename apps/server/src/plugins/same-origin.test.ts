import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { allowedOriginsOf, isCrossSite } from './same-origin.js';

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PUBLIC_BASE_URL: 'https://vez.example',
  CORS_ORIGINS: 'https://kiosk.example/, not a url',
});
const allowed = allowedOriginsOf(config);
const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

describe('the cross-site guard', () => {
  it('allows the public origin and CORS_ORIGINS, each as a URL origin; an entry that is no URL allows nothing', () => {
    expect([...allowed].sort()).toEqual(['https://kiosk.example', 'https://vez.example']);
  });

  it.each<[Record<string, string>, boolean, string]>([
    [{}, false, 'no browser headers: not a browser'],
    [{ 'sec-fetch-site': 'same-origin' }, false, 'same origin'],
    [{ 'sec-fetch-site': 'none' }, false, 'typed by the user'],
    [{ 'sec-fetch-site': 'same-origin', origin: 'https://vez.example' }, false, 'own page'],
    [{ 'sec-fetch-site': 'cross-site', origin: 'https://kiosk.example' }, false, 'an allowed origin'],
    [{ origin: 'https://vez.example' }, false, 'an older browser on our page'],
    [{ origin: 'https://evil.example' }, true, 'an older browser on another site'],
    [{ origin: 'null' }, true, 'an opaque origin'],
    [{ 'sec-fetch-site': 'cross-site' }, true, 'another site without an origin'],
    [{ 'sec-fetch-site': 'same-site', origin: 'https://x.vez.example' }, true, 'a sibling subdomain'],
    [{ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, true, 'another site'],
  ])('%j is cross-site: %s (%s)', (headers, expected, _why) => {
    expect(isCrossSite(request(headers), allowed)).toBe(expected);
  });
});
