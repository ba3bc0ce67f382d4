#!/usr/bin/env bash
# Runs the server bundle (`npm run build` makes it) with the process settings its memory is measured with
# (bench/RESULTS.md, idle RSS under 250 MB). `npm start` and the benchmarks start the server through this script.
#   MALLOC_ARENA_MAX=2          glibc keeps two malloc arenas, not one per thread of V8's and libuv's pools.
#   MALLOC_MMAP_THRESHOLD_      a fixed, low threshold: glibc otherwise raises it after the first large free, and
#                               V8's compiler scratch memory (PGlite's WebAssembly tiering up) then stays in the heap for
#                               good instead of going back to the system (about 25 MB). At 32 KB rather than 128 KB the
#                               freed blocks between 32 and 128 KB go back too: glibc returns only the top of its heap,
#                               and the holes they left kept another 20-30 MB resident (malloc_trim measured it).
#   --max-semi-space-size=8     V8's young generation grows to 2 x 64 MB on a machine this size and keeps that memory;
#                               8 MB semi-spaces keep it at 16 MB (about 40 MB less).
# SERVER_NODE_ARGS adds node flags (--cpu-prof, say); SERVER_NODE names the node binary (default: the one on the PATH,
# which in npm scripts is the project's Node 24 from node_modules/.bin). Not NODE: npm sets that to the node running npm
# itself (the machine's Node 20), which oidc-provider does not support.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-32768}"
# shellcheck disable=SC2086 # SERVER_NODE_ARGS is a list of flags
exec "${SERVER_NODE:-node}" --max-semi-space-size=8 ${SERVER_NODE_ARGS:-} "$here/dist/main.js"
