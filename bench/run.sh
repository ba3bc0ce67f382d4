#!/usr/bin/env bash
# Runs the benchmarks: identity, then web (bench/web.sh builds the web app first). Each rewrites only its own
# section of bench/RESULTS.md, and only when its run succeeded. `npm run bench` calls this; options go to
# identity.bench.ts (`npm run bench:web` runs the web part alone).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

npm run build --silent >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  exit 1
}

# The run takes about two minutes; the outer limit only guards against a hang.
timeout --signal=TERM --kill-after=15 300 node bench/identity.bench.ts --json "$work/identity.json" "$@"
node bench/support/report.ts "$work/identity.json"
# Biome formats Markdown too (aligned tables): keep the generated file lint-clean.
biome format --write bench/RESULTS.md >/dev/null 2>&1
echo "bench/RESULTS.md (identity section) updated" >&2

# The same on PostgreSQL (Debian's package, a throw-away cluster): the engine for installations that grow.
scripts/with-postgres.sh bash -c \
  'timeout --signal=TERM --kill-after=15 300 node bench/identity.bench.ts --database-url "$TEST_DATABASE_URL" --json "$0"' \
  "$work/identity-postgres.json"
node bench/support/report.ts "$work/identity-postgres.json"
biome format --write bench/RESULTS.md >/dev/null 2>&1
echo "bench/RESULTS.md (identity on PostgreSQL section) updated" >&2

# Identity and access administration: paging and searching 10,000 users on PGlite.
timeout --signal=TERM --kill-after=15 300 node bench/iam-users.bench.ts
biome format --write bench/RESULTS.md >/dev/null 2>&1

# Devices and data: MQTT ingest against bare Mosquitto, then on PostgreSQL; publish-to-live latency.
timeout --signal=TERM --kill-after=15 400 node bench/ingest.bench.ts
scripts/with-postgres.sh bash -c 'timeout --signal=TERM --kill-after=15 400 node bench/ingest.bench.ts --database-url "$TEST_DATABASE_URL"'
biome format --write bench/RESULTS.md >/dev/null 2>&1

# Alarms: ingest cost of 1,000 alarm rules (alternating runs without and with them); value-to-alarm in the browser.
timeout --signal=TERM --kill-after=15 900 node bench/alarms.bench.ts
# Value to alarm on the real /alarms screen in Chromium (the browser tests' set-up; needs the built web app).
npm run build --workspace @edgeport/web --silent
timeout --signal=TERM --kill-after=15 300 playwright test --config bench/alarm-screen/playwright.config.ts
biome format --write bench/RESULTS.md >/dev/null 2>&1

# Data explorer: its chart with 1,000,000 points in Chromium, and the server's query and CSV export on PGlite.
timeout --signal=TERM --kill-after=15 600 node bench/data-explore.bench.ts
biome format --write bench/RESULTS.md >/dev/null 2>&1

# Telemetry at scale (issue 34): a year of one device at 1 Hz, a day of 1,000 devices, ingest, bytes per value; on
# PGlite, then on PostgreSQL (generating and compacting the year takes most of the time).
timeout --signal=TERM --kill-after=15 10800 node bench/telemetry.bench.ts
scripts/with-postgres.sh bash -c 'timeout --signal=TERM --kill-after=15 10800 node bench/telemetry.bench.ts --database-url "$TEST_DATABASE_URL"'
biome format --write bench/RESULTS.md >/dev/null 2>&1

# Devices table: 100,000 devices on PGlite, page load, search, filters, sorting, map positions (target p95 < 100 ms).
timeout --signal=TERM --kill-after=15 600 node bench/devices-table.bench.ts
biome format --write bench/RESULTS.md >/dev/null 2>&1

# Remote access: TCP through the gateway tunnel next to a direct connection, added latency, 100 browser sessions.
timeout --signal=TERM --kill-after=15 600 node bench/remote-access.ts
biome format --write bench/RESULTS.md >/dev/null 2>&1

# Dashboards: 50 widgets at 10 Hz (main thread, input latency), first frame of 100 widgets, 1,000 undo/redo steps.
timeout --signal=TERM --kill-after=15 600 playwright test --config bench/dashboards/playwright.config.ts
biome format --write bench/RESULTS.md >/dev/null 2>&1

bash bench/web.sh
