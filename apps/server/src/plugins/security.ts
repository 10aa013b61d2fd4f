import fs from 'node:fs';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { inlineStyleHashes, webIndexFile } from './web.js';

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined; // a relative path: same origin
  }
}

/**
 * Browser features the app never uses are denied to it and to anything it embeds (docs/security.md).
 * Kept for its own pages: autoplay (the console's chime, docs/product.md §7) and clipboard-write (a
 * party copies its link); web-share (the share sheet) keeps its default, the page itself, unnamed:
 * desktop Chromium does not know it and would log an error. Push needs none: its permission is a
 * prompt, not a policy feature. Only features Chromium knows are named (e2e/csp.e2e.ts).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=(self)',
  'browsing-topics=()',
  'camera=()',
  'clipboard-read=()',
  'clipboard-write=(self)',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=()',
  'gamepad=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'local-fonts=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'picture-in-picture=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'sync-xhr=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** The hashes of the web build's inline styles (the boot screen's), or none without a build. */
function shellStyleHashes(app: FastifyInstance): string[] {
  const indexFile = webIndexFile(app.config);
  return fs.existsSync(indexFile) ? inlineStyleHashes(fs.readFileSync(indexFile, 'utf8')) : [];
}

/**
 * Security headers on every answer (docs/security.md). The Content-Security-Policy allows no inline
 * script: the web build loads only same-origin module files, and runtime settings reach it in a meta
 * tag. No inline style either but the shell's boot screen, by its hash: the app's CSS is files, and
 * React sets `style` props through the CSSOM, which style-src-attr does not govern.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const imageOrigin = originOf(app.config.IMAGE_BASE_URL);
  const sentryOrigin = originOf(app.config.SENTRY_DSN);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", ...shellStyleHashes(app)],
        styleSrcAttr: ["'none'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(imageOrigin ? [imageOrigin] : [])],
        connectSrc: ["'self'", ...(sentryOrigin ? [sentryOrigin] : [])],
        fontSrc: ["'self'", 'data:'],
        // The console's chime is a generated WAV data: URI (docs/product.md §7).
        mediaSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        ...(app.config.publicBaseUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: app.config.publicBaseUrl.startsWith('https:') ? { maxAge: 15552000 } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
  });
}
