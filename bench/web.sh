#!/usr/bin/env bash
# Web benchmark: builds apps/web and the server bundle, measures its first-load JavaScript (bench/web-bundle.ts) and its Lighthouse
# performance against the real server (bench/web-lighthouse.ts), then rewrites the web section of bench/RESULTS.md
# (only when both succeeded; a first load over budget still writes the section, then fails).
# `npm run bench:web` calls this; `bench/run.sh` too, after the identity benchmark. Options go to web-lighthouse.ts.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

npm run build --silent >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  exit 1
}

bundle_status=0
node bench/web-bundle.ts --json "$work/bundle.json" || bundle_status=$?
[ -f "$work/bundle.json" ] || exit $((bundle_status ? bundle_status : 1))

# About 1.5 minutes (8 Lighthouse runs); the outer limit only guards against a hang.
timeout --signal=TERM --kill-after=15 200 node bench/web-lighthouse.ts --json "$work/lighthouse.json" "$@"

node bench/support/web-report.ts "$work/bundle.json" "$work/lighthouse.json"
# Biome formats Markdown too (aligned tables): keep the generated file lint-clean.
biome format --write bench/RESULTS.md >/dev/null 2>&1
echo "bench/RESULTS.md (web section) updated" >&2
exit "$bundle_status"
