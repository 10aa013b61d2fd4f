import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Libraries and app code that every diner screen needs on its first load. One chunk instead of
// a dozen small shared ones compresses better and costs fewer requests (issue: position page JS budget).
// Heavy, screen-specific code (zod, react-hook-form, libphonenumber, Sentry) stays out of it.
const SHARED = [
  /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|use-sync-external-store)[\\/]/,
  // Mutations are the join form's: the position page never loads their observer.
  /node_modules[\\/]@tanstack[\\/](?!.*[\\/](mutationObserver|useMutation)\.js$)/,
  /apps[\\/]web[\\/]src[\\/](lib[\\/](?!zod-mini-resolver)|config[\\/]|locales[\\/](pt|en)[\\/]translation|app[\\/]layouts[\\/]|features[\\/](venue-info[\\/](?!components[\\/]venue-inaccessible)|language[\\/]))/,
  /apps[\\/]web[\\/]src[\\/](components[\\/]ui[\\/](spinner|lazy-modal)\.tsx|assets[\\/]header-placeholder\.svg)$/,
  /apps[\\/]web[\\/]src[\\/](app[\\/](app|router|providers|prefetch|page-loading)\.tsx?|features[\\/]position[\\/](api|lib)[\\/](prefetch-position|position-api|position-key)\.ts)$/,
  // The join form's validation messages (contract messages.ts) come with the join screen, not here.
  /packages[\\/]contract[\\/]src[\\/](constants|defaults|errors|stream-names|getting-close)\.ts$/,
];

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { 'use-sync-external-store/shim': fileURLToPath(new URL('./src/lib/use-sync-external-store-shim.ts', import.meta.url)) },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/images': 'http://localhost:3000' } },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Every browser the diner pages support preloads modules natively: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'vendor', test: (id: string) => SHARED.some((re) => re.test(id)) }],
        },
      },
    },
  },
});
