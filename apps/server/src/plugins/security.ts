import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
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
 * The headers helmet writes for these options, in its order. They depend on no request (no CSP
 * nonce, no function in a directive), so they are worked out once at start: building helmet's
 * middleware for every request, as @fastify/helmet does, parsed the whole policy each time, about
 * a tenth of a bare request's CPU (docs/decisions/050-security-headers-once.md).
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): [string, string][] {
  const headers: [string, string][] = [];
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  return headers;
}

/** helmet's options for this deployment (docs/security.md). */
export function helmetOptions(app: FastifyInstance): HelmetOptions {
  const imageOrigin = originOf(app.config.IMAGE_BASE_URL);
  const sentryOrigin = originOf(app.config.SENTRY_DSN);
  return {
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
  };
}

/**
 * Security headers on every answer (docs/security.md). The Content-Security-Policy allows no inline
 * script: the web build loads only same-origin module files, and runtime settings reach it in a meta
 * tag. No inline style either but the shell's boot screen, by its hash: the app's CSS is files, and
 * React sets `style` props through the CSSOM, which style-src-attr does not govern.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  /** Bench only (bench/lib/api-variants.ts): helmet's middleware built for every request, as before. */
  options: { once?: false } = {},
): void {
  if (options.once === false) {
    const helmetOptionsOf = helmetOptions(app);
    app.addHook('onRequest', (request, reply, done) => {
      helmet(helmetOptionsOf)(request.raw, reply.raw, () => {});
      reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
      done();
    });
    return;
  }
  const headers = [...helmetHeaders(helmetOptions(app)), ['permissions-policy', PERMISSIONS_POLICY] as [string, string]];
  // Set on the response as helmet's middleware did, before anything else can answer; a callback
  // hook, no promise per request.
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (let i = 0; i < headers.length; i++) raw.setHeader(headers[i]![0], headers[i]![1]);
    raw.removeHeader('x-powered-by');
    done();
  });
}
