import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

/**
 * What the server answers under the portal's origin: the identity server, the services, tunnels, device MQTT over
 * WebSocket, downloads, the sample apps, browser access and the health checks. `npm run dev` (scripts/dev.sh) serves
 * the web app from source with hot reload and hands these to the server.
 */
const SERVER_PATHS = [
  'auth',
  'svc',
  'tunnel',
  'mqtt',
  'downloads',
  'samples',
  'store-apps',
  'remote',
  'healthz',
  'readyz',
];

/** The running server (`DEV_SERVER_URL`, default the dev script's). */
const server = process.env.DEV_SERVER_URL ?? 'http://127.0.0.1:8080';

const toServer: ProxyOptions = {
  target: server,
  // The realm comes from the host name (demo.app.localhost): the server must see the browser's Host.
  changeOrigin: false,
  ws: true,
};

/** The SPA is served by apps/server from `dist/` at `/`; the identity server and services share its origin. */
export default defineConfig({
  plugins: [react()],
  server: {
    port: Number(process.env.DEV_WEB_PORT ?? 5173),
    strictPort: true,
    host: '127.0.0.1',
    // Realm host names (demo.app.localhost) and the other hosts the product uses under BASE_DOMAIN.
    allowedHosts: ['.localhost'],
    proxy: Object.fromEntries([[`^/(${SERVER_PATHS.join('|')})(/|$|\\?)`, toServer]]),
  },
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
