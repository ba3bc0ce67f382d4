#!/usr/bin/env bash
# Runs a command against a throw-away PostgreSQL (Debian's package) on a spare loopback port:
#   scripts/with-postgres.sh <command...>   (the command sees TEST_DATABASE_URL)
set -euo pipefail

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
if [ -z "$(pg_bin)" ]; then
  echo "PostgreSQL not found: installing Debian's postgresql package"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
BIN="$(pg_bin)"
PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
DIR="$(mktemp -d /tmp/edgeport-pg.XXXXXX)"
RUN_AS=()
if [ "$(id -u)" = "0" ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home "$DIR" postgres
  chown postgres "$DIR"
  RUN_AS=(runuser -u postgres --)
fi
cleanup() {
  "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT
"${RUN_AS[@]}" "$BIN/initdb" -D "$DIR/data" -A trust -U postgres --no-sync >/dev/null
"${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
echo "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres" "$@"
