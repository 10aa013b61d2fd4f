import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiErrorBody, ErrorCode } from '@vez/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const defaultDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** What the browser may know of the configuration (conventions §5): an explicit list. */
function clientConfig(app: FastifyInstance) {
  return {
    imageBaseUrl: app.config.IMAGE_BASE_URL,
    sentryDsn: app.config.SENTRY_DSN ?? '',
    smartLinkBaseUrl: app.config.SMART_LINK_BASE_URL,
  };
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Serves the web build and answers every non-API GET with the app shell, its runtime settings in a
 * meta tag (no inline script, so the CSP holds). Unknown API paths answer the JSON error model.
 */
export async function registerWeb(app: FastifyInstance): Promise<void> {
  const dist = app.config.WEB_DIST_DIR ? path.resolve(app.config.WEB_DIST_DIR) : defaultDist;
  const indexFile = path.join(dist, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  const meta = `<meta name="vez-config" content="${escapeAttr(JSON.stringify(clientConfig(app)))}">`;
  const shell = hasBuild
    ? fs.readFileSync(indexFile, 'utf8').replace('<!--vez-config-->', meta)
    : `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Vez</title></head><body><p>The web client is not built yet: run <code>npm run build</code>.</p></body></html>`;

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
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
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(shell);
  });
}
