import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The SPA is served by apps/server from `dist/` at `/`; the identity server and services share its origin. */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
