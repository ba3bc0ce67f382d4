#!/usr/bin/env bash
# `npm run dev`: the server from source (restarted by node --watch when a server file changes) on SERVER_PORT (8080)
# with the demo, and the web app from source by Vite on DEV_WEB_PORT (5173) with hot reload; Vite hands the server's
# paths (identity, services, tunnels, MQTT over WebSocket; apps/web/vite.config.ts) to the server with the Host header
# unchanged. Open the printed sign-in address (port 5173): a change to a React component shows without a reload.
# The server sees PUBLIC_PORT=5173, so its sign-in redirects and links go through Vite. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER_PORT="${SERVER_PORT:-8080}"
DEV_WEB_PORT="${DEV_WEB_PORT:-5173}"
export DEV_SERVER_URL="http://127.0.0.1:$SERVER_PORT" DEV_WEB_PORT

pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap 'stop; exit 0' INT TERM
trap stop EXIT

# Output through process substitutions: $! is then the process itself, which Ctrl-C must stop.
PORT="$SERVER_PORT" PUBLIC_PORT="$DEV_WEB_PORT" EDGEPORT_DEMO="${EDGEPORT_DEMO:-true}" \
  node --watch apps/server/src/main.ts > >(sed -u 's/^/[server] /') 2>&1 &
pids+=($!)
(cd apps/web && exec vite --clearScreen false) > >(sed -u 's/^/[web] /') 2>&1 &
pids+=($!)
wait -n "${pids[@]}"
