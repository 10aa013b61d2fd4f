// The web bench's reference page (bench/reference/): a minimal React page, built here into a copy of
// the web build so the same server serves it, next to the diner pages, in the same run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { repoRoot } from '../../e2e/support/index.js';

/** Where the reference page is served, below the server's web build. */
export const REFERENCE_PATH = '/bench-reference/index.html';

/**
 * Copies apps/web/dist to a directory of its own, builds the reference page into its
 * `bench-reference/` folder, and returns that directory (the server's WEB_DIST_DIR for the run).
 * apps/web/dist itself is left as `npm run build` made it.
 */
export async function webDistWithReference(): Promise<{ dir: string; remove: () => void }> {
  const dist = path.join(repoRoot, 'apps/web/dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` before the web bench.');
  }
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-web-bench-'));
  const dir = path.join(base, 'web-dist');
  fs.cpSync(dist, dir, { recursive: true });
  await build({
    configFile: false,
    root: path.join(repoRoot, 'bench/reference'),
    base: '/bench-reference/',
    logLevel: 'warn',
    mode: 'production',
    build: {
      target: 'es2022',
      outDir: path.join(dir, 'bench-reference'),
      emptyOutDir: true,
      modulePreload: { polyfill: false },
    },
  });
  return { dir, remove: () => fs.rmSync(base, { recursive: true, force: true }) };
}
