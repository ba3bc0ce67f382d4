#!/usr/bin/env bash
# The whole suite: typecheck, lint, API-client drift, unit + server integration on PGlite, the server tests where
# the engine matters again on PostgreSQL (TEST_POSTGRES=0 skips them; TEST_POSTGRES=all runs every server test there),
# then browser tests in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
LOG_DIR="$(mktemp -d)"
trap 'rm -rf "$LOG_DIR"' EXIT
step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }
# Runs a test command, keeping its output to count passed tests at the end.
counted() { local name="$1"; shift; "$@" 2>&1 | tee "$LOG_DIR/$name.log"; }
passed_in() { sed 's/\x1b\[[0-9;]*m//g' "$LOG_DIR/$1.log" | grep -oE "$2" | grep -oE '[0-9]+' | head -1; }

if ! command -v chromium >/dev/null 2>&1; then
  step "Installing Debian's chromium package (browser tests never download a browser)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

if ! command -v mosquitto_pub >/dev/null 2>&1 || ! command -v mosquitto >/dev/null 2>&1; then
  step "Installing Debian's mosquitto and mosquitto-clients (MQTT tests use clients this project did not write)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto mosquitto-clients >/dev/null
fi

if ! command -v ip >/dev/null 2>&1 || [ ! -x /usr/sbin/nginx ] || [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null 2>&1; then
  step "Installing Debian's nginx, openssh-server, openssh-client and iproute2 (the remote-access test's plant and office)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    nginx openssh-server openssh-client iproute2 >/dev/null
fi

step 'Typecheck'
tsc -p tsconfig.json
tsc -p apps/web/tsconfig.json
tsc -p samples/tsconfig.json

step 'Lint (Biome)'
biome check .

step 'API client matches the OpenAPI documents'
node scripts/generate-api-client.ts --check

step 'Unit and server integration tests (PGlite)'
counted unit vitest run
total=$(passed_in unit 'Tests +[0-9]+ passed')

# PGlite is PostgreSQL itself, so the same SQL passes on both; what differs is a real server's connection pool and
# concurrency. Run again on PostgreSQL: ingest and its durability, and the services that serialise concurrent writes
# (alarms, notifications' leased worker, limits, licences and billing). The cross-tenant matrix checks authorization,
# which does not depend on the engine: it runs on PGlite only.
POSTGRES_SUITES=(apps/server/test/ingest apps/server/test/cluster apps/server/src/ingest apps/server/src/telemetry
  apps/server/src/services/platform/data apps/server/src/services/alarms
  apps/server/src/services/notifications apps/server/src/services/limits apps/server/src/services/license)
if [ "${TEST_POSTGRES:-1}" = "all" ]; then POSTGRES_SUITES=(apps/server); fi
if [ "${TEST_POSTGRES:-1}" != "0" ]; then
  step 'Server integration tests (PostgreSQL)'
  counted postgres scripts/with-postgres.sh vitest run "${POSTGRES_SUITES[@]}"
  total=$((total + $(passed_in postgres 'Tests +[0-9]+ passed')))
fi

step 'Build the web app; its first load stays within 300 KiB gzipped'
npm run build --workspace @edgeport/web --silent
# It had grown to 338 KiB unnoticed while only the benchmark measured it; the check takes a second.
node bench/web-bundle.ts | grep -E '^(  Shell|  Login|Budget)'

step 'Browser tests (Chromium)'
counted browser playwright test
total=$((total + $(passed_in browser '[0-9]+ passed')))

printf '\n%s passed, 0 failed\n' "$total"
