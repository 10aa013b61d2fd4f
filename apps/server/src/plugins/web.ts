import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ApiErrorBody,
  BOOT_IMAGE_CLASS,
  type BootSpotlight,
  ErrorCode,
  HEADER_IMAGE_SIZES,
  HEADER_WIDE_MEDIA,
  responsiveImage,
} from '@vez/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';

const defaultDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** The app shell of the web build (WEB_DIST_DIR or apps/web/dist): its index.html. */
export function webIndexFile(config: FastifyInstance['config']): string {
  return path.join(config.WEB_DIST_DIR ? path.resolve(config.WEB_DIST_DIR) : defaultDist, 'index.html');
}

/**
 * The CSP source of each `<style>` element of a page, `'sha256-…'` of its exact text: the shell's
 * boot screen is styled before any file loads, and the Content-Security-Policy allows that style and
 * no other inline one (plugins/security.ts, docs/security.md).
 */
export function inlineStyleHashes(html: string): string[] {
  const source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  return [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(([, text]) => source(text ?? ''));
}

/** What the browser may know of the configuration (docs/ARCHITECTURE.md, habit 5): an explicit list. */
function clientConfig(app: FastifyInstance) {
  return {
    imageBaseUrl: app.config.IMAGE_BASE_URL,
    sentryDsn: app.config.SENTRY_DSN ?? '',
    smartLinkBaseUrl: app.config.SMART_LINK_BASE_URL,
  };
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The venue's header image in the boot screen, with the very srcset, sizes and media of the app's
 * header (VenueHeader): the phone fetches it while the scripts load, shows it at once (the page's
 * largest paint), and the app then draws the same, already loaded image.
 */
export function bootHeroHtml(boot: BootSpotlight): string {
  const wide = responsiveImage(boot.large);
  const narrow = responsiveImage(boot.small);
  const sizes = escapeAttr(HEADER_IMAGE_SIZES);
  return (
    `<picture><source media="${escapeAttr(HEADER_WIDE_MEDIA)}" srcset="${escapeAttr(wide.srcSet ?? wide.src)}" sizes="${sizes}">` +
    `<img class="${BOOT_IMAGE_CLASS}" src="${escapeAttr(narrow.src)}"${narrow.srcSet ? ` srcset="${escapeAttr(narrow.srcSet)}" sizes="${sizes}"` : ''}` +
    ` alt="" width="720" height="240" fetchpriority="high"` +
    ` data-venue="${escapeAttr(boot.venueId)}" data-small="${escapeAttr(boot.small)}" data-large="${escapeAttr(boot.large)}"></picture>`
  );
}

/**
 * What crawlers may read (docs/security.md): a venue's join page (shared on posters and menus) and
 * the terms are public; a party's place and its shared link (`/waitlist/…`), the host console, the
 * API and the metrics are private. robots.txt is advice a crawler may ignore, and a public list: the
 * private pages stay protected by their unguessable ids and sessions, not by it.
 */
export const ROBOTS_TXT = [
  'User-agent: *',
  'Disallow: /waitlist/',
  'Disallow: /host',
  'Disallow: /api/',
  'Disallow: /metrics',
  'Allow: /remote-waitlist/',
  'Allow: /terms-service',
  '',
].join('\n');

export interface WebOptions {
  /** The header image of a venue's join page, or undefined (unknown venue, no image of its own). */
  bootSpotlight?: (venueId: string) => Promise<BootSpotlight | undefined>;
  /** The header image of a party's position page (its own id or its share id), or undefined. */
  positionBootSpotlight?: (waitlistId: string) => Promise<BootSpotlight | undefined>;
}

/**
 * Serves the web build and answers every non-API GET with the app shell, its runtime settings in a
 * meta tag (no inline script, so the CSP holds). Unknown API paths answer the JSON error model.
 */
export async function registerWeb(app: FastifyInstance, options: WebOptions = {}): Promise<void> {
  const indexFile = webIndexFile(app.config);
  const dist = path.dirname(indexFile);
  const hasBuild = fs.existsSync(indexFile);
  const meta = `<meta name="vez-config" content="${escapeAttr(JSON.stringify(clientConfig(app)))}">`;
  const shell = hasBuild
    ? fs.readFileSync(indexFile, 'utf8').replace('<!--vez-config-->', () => meta)
    : `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Vez</title></head><body><p>The web client is not built yet: run <code>npm run build</code>.</p></body></html>`;

  // The server's own answer, with or without a build; a build's robots.txt is not served.
  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(ROBOTS_TXT),
  );

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      globIgnore: ['robots.txt'],
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  const sendShell = (reply: FastifyReply, html: string) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);

  /** The shell with the venue's header image already in its boot screen, when `find` names one. */
  const shellWithBootHero = async (request: FastifyRequest, reply: FastifyReply, find: () => Promise<BootSpotlight | undefined>) => {
    let boot: BootSpotlight | undefined;
    try {
      boot = await find();
    } catch (error) {
      // The page itself still answers: the app shows the venue's state or its error screen.
      if (!(error instanceof AppError)) request.log.warn({ err: error }, 'page: no boot image');
    }
    // A function replacement: `$&` and the like in a venue's image path stay as they are.
    return sendShell(reply, boot ? shell.replace('<!--vez-boot-hero-->', () => bootHeroHtml(boot)) : shell);
  };

  // A venue's join page: the boot screen already shows the venue's header image.
  const { bootSpotlight, positionBootSpotlight } = options;
  if (hasBuild && bootSpotlight) {
    app.get<{ Params: { venueId: string } }>('/remote-waitlist/:venueId', (request, reply) =>
      shellWithBootHero(request, reply, () => bootSpotlight(request.params.venueId)),
    );
  }
  // A party's position page (the SMS link opens it cold): the same, for the party's venue, so the
  // page's largest paint does not wait for the position, then the venue, then the image
  // (docs/decisions/034-lean-diner-pages.md).
  if (hasBuild && positionBootSpotlight) {
    app.get<{ Params: { waitlistId: string } }>('/waitlist/:waitlistId', (request, reply) =>
      shellWithBootHero(request, reply, () => positionBootSpotlight(request.params.waitlistId)),
    );
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith('/api/') || url === '/api' || request.method !== 'GET') {
      const body: ApiErrorBody = { statusCode: 404, code: ErrorCode.NOT_FOUND, message: 'Not found.' };
      return reply.status(404).send(body);
    }
    if (/^\/assets\//.test(url)) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    return sendShell(reply, shell);
  });
}
