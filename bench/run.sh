#!/usr/bin/env bash
# Runs the benchmarks and rewrites bench/RESULTS.md (only when the run succeeded). `npm run bench` calls this.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The run takes about two minutes; the outer limit only guards against a hang.
timeout --signal=TERM --kill-after=15 300 node bench/identity.bench.ts --json "$work/identity.json" "$@"
node bench/support/report.ts "$work/identity.json" >"$work/RESULTS.md"
mv "$work/RESULTS.md" bench/RESULTS.md
# Biome formats Markdown too (aligned tables): keep the generated file lint-clean.
biome format --write bench/RESULTS.md >/dev/null 2>&1
echo "bench/RESULTS.md updated" >&2
