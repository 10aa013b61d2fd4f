import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Files side by side, three at a time on any machine: most of a file's time is spent waiting
    // (a browser, a child server, PostgreSQL), and Vitest's default (cores - 1) is one on 2 cores.
    // Every file brings its own servers, ports, store schema and Redis prefix (apps/server/test).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: 'apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // Deadlines, not waits: files run side by side, and a render can take seconds under load.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.e2e.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll's deadline (1 s by default) for what the server does in its own time, such
          // as converting an upload: files run side by side, and a busy machine takes longer.
          // Product latencies ("within 2 s") name their own timeout.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
