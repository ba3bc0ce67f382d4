import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The SPA is served by apps/server from `dist/` at `/`; the identity server and services share its origin. */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // bench/web-bundle.ts follows the chunk graph of the first load through it.
    manifest: true,
    // The first-load budget (300 KiB gzipped) is checked by bench/web-bundle.ts; the shell is one chunk of ~840 kB.
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the first load imports statically in one chunk. Split automatically it was 54 files, which
          // compress worse one by one (301 KiB gzipped, 249 KiB as one) and cost a request each on the first load.
          groups: [{ name: 'shell', tags: ['$initial'] }],
        },
      },
    },
  },
});
