import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The host console's own build, next to the diner app's in dist/ (run after `vite build`). Its
 * manifest, dist/host-manifest.json, tells the diner app's /host route which files to load.
 */
export default defineConfig({
  plugins: [react()],
  publicDir: false,
  build: {
    target: 'es2022',
    sourcemap: false,
    outDir: 'dist',
    emptyOutDir: false,
    manifest: 'host-manifest.json',
    rolldownOptions: {
      input: { 'host-console': 'src/features/host/mount.tsx' },
      preserveEntrySignatures: 'strict',
      output: {
        entryFileNames: 'assets/host/[name]-[hash].js',
        chunkFileNames: 'assets/host/[name]-[hash].js',
        assetFileNames: 'assets/host/[name]-[hash][extname]',
      },
    },
  },
});
