import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined; // a relative path: same origin
  }
}

/**
 * Security headers on every answer. The Content-Security-Policy allows no inline script: the web
 * build loads only same-origin module files, and runtime settings reach it in a meta tag.
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
        styleSrc: ["'self'", "'unsafe-inline'"],
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
}
