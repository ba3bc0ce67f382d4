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
    // The first-load budget (300 KiB gzipped) is checked by bench/web-bundle.ts; one vendor-heavy entry is fine.
    chunkSizeWarningLimit: 600,
  },
});
