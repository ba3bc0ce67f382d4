#!/usr/bin/env bash
# `npm run cluster`: a whole Edgeport cluster on this machine, from Debian's packages (installed when missing):
# PostgreSQL, Mosquitto with its dynamic-security plugin, CLUSTER_INSTANCES server instances (default 2) on internal
# ports CLUSTER_PORT+101, +102, ... and nginx in front on CLUSTER_PORT (default 9080), round robin without sticky
# sessions. Everything lives under CLUSTER_DIR (default ./data/cluster): a second run reuses the database (and prints
# no sign-in lines). Ctrl-C (or SIGTERM) stops all of it and exits 0; a part that fails to start stops the rest and
# exits 1, an instance that ends later is started again. CLUSTER_BUILD=false skips `npm run build` (the bundles must
# exist).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
export PATH="$ROOT/node_modules/.bin:$PATH"

INSTANCES="${CLUSTER_INSTANCES:-2}"
PORT="${CLUSTER_PORT:-9080}"
DIR="${CLUSTER_DIR:-$ROOT/data/cluster}"
BUILD="${CLUSTER_BUILD:-true}"
MQTT_ADMIN=edgeport-admin

say() { printf 'cluster: %s\n' "$*"; }
die() {
  printf 'cluster: %s\n' "$*" >&2
  exit 1
}

[[ $INSTANCES =~ ^[1-9][0-9]?$ ]] || die "CLUSTER_INSTANCES must be a number from 1 to 99, got '$INSTANCES'"
if ! [[ $PORT =~ ^[1-9][0-9]*$ ]] || ((PORT + 100 + INSTANCES > 65535)); then
  die "CLUSTER_PORT must be a port number (with room for the instances' ports above it), got '$PORT'"
fi
[[ $BUILD == true || $BUILD == false ]] || die "CLUSTER_BUILD must be true or false, got '$BUILD'"
instance_port() { echo $((PORT + 100 + $1)); }
# Something answers on the port (loopback): another program holds it.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
spare_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
secret() { node -e "process.stdout.write(require('node:crypto').randomBytes(24).toString('hex'))"; }

# shellcheck disable=SC2012 # Debian's paths: no odd characters
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
# shellcheck disable=SC2012
dynsec_plugin() { ls /usr/lib/*/mosquitto_dynamic_security.so 2>/dev/null | head -1; }

# --- Debian's packages ----------------------------------------------------------------------------------------------
missing=()
[ -n "$(pg_bin)" ] || missing+=(postgresql)
{ [ -x /usr/sbin/mosquitto ] && [ -n "$(dynsec_plugin)" ] && command -v mosquitto_ctrl >/dev/null; } || missing+=(mosquitto)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
if ((${#missing[@]})); then
  [ "$(id -u)" = 0 ] || die "missing Debian packages: ${missing[*]} (sudo apt-get install --no-install-recommends ${missing[*]})"
  say "installing Debian's ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
PG_BIN="$(pg_bin)"
PLUGIN="$(dynsec_plugin)"

# --- one cluster per directory, its ports free ----------------------------------------------------------------------
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
# Held by every part started below (they inherit it): a second run on the same directory stops here.
exec 9>"$DIR/.lock"
flock -n 9 || die "another cluster runs on $DIR (or parts of one are still stopping)"
for port in "$PORT" $(for i in $(seq "$INSTANCES"); do instance_port "$i"; done); do
  port_busy "$port" && die "port $port is taken (set CLUSTER_PORT: the cluster uses it and the $INSTANCES above $((PORT + 100)))"
done

if [ "$BUILD" = true ]; then
  npm run build --silent
fi
[ -f apps/server/dist/main.js ] || die "apps/server/dist/main.js is missing: run npm run build (or leave CLUSTER_BUILD unset)"

# --- the parts: started in their own sessions so Ctrl-C reaches only this script, which stops them in order ---------
PIDS=()
NAMES=()
STOPPED=''
# Each part's output line by line with its name in front; the sign-in lines as `npm start` prints them.
prefix() {
  trap '' INT TERM
  exec sed -u -e '/^Sign in at /b' -e "s/^/[$1] /"
}
declare -A STARTED_AT
start_part() {
  local name="$1"
  shift
  setsid "$@" </dev/null > >(prefix "$name") 2>&1 &
  PIDS+=("$!")
  NAMES+=("$name")
  STARTED_AT[$name]=$SECONDS
}
# Forgets a part that has ended (and was waited for).
forget_part() {
  local i
  for i in "${!PIDS[@]}"; do [ "${PIDS[$i]}" != "$1" ] || unset 'PIDS[i]' 'NAMES[i]'; done
  PIDS=("${PIDS[@]}")
  NAMES=("${NAMES[@]}")
}
pid_of() {
  local i
  for i in "${!NAMES[@]}"; do [ "${NAMES[$i]}" != "$1" ] || echo "${PIDS[$i]}"; done
}
name_of() {
  local i
  for i in "${!PIDS[@]}"; do [ "${PIDS[$i]}" != "$1" ] || echo "${NAMES[$i]}"; done
}
alive() {
  local state
  state="$(ps -o stat= -p "$1" 2>/dev/null)" || return 1
  [[ $state != Z* ]]
}
# Signals the parts, waits up to `grace` seconds for them to end, then kills what is left.
stop_parts() {
  local signal="$1" grace="$2" name pid deadline
  shift 2
  local pids=()
  for name in "$@"; do
    pid="$(pid_of "$name")"
    [ -n "$pid" ] && alive "$pid" && kill -"$signal" "$pid" 2>/dev/null && pids+=("$pid")
  done
  deadline=$((SECONDS + grace))
  for pid in "${pids[@]}"; do
    while alive "$pid" && ((SECONDS < deadline)); do sleep 0.1; done
    if alive "$pid"; then
      say "$(name_of "$pid") did not stop within ${grace}s: killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
  done
}
stop_all() {
  [ -z "$STOPPED" ] || return 0
  STOPPED=1
  # Whatever fails while stopping, stop the rest.
  set +e
  ((${#PIDS[@]})) || return 0
  say 'stopping: instances, nginx, Mosquitto, PostgreSQL'
  local instances=()
  for name in "${NAMES[@]}"; do [[ $name != instance-* ]] || instances+=("$name"); done
  # nginx stops taking connections and ends when its requests (and WebSockets, which the instances close) are done.
  local nginx_pid
  nginx_pid="$(pid_of nginx)"
  [ -z "$nginx_pid" ] || kill -QUIT "$nginx_pid" 2>/dev/null
  ((${#instances[@]} == 0)) || stop_parts TERM 30 "${instances[@]}"
  stop_parts TERM 10 nginx
  stop_parts TERM 10 mosquitto
  # SIGINT is PostgreSQL's fast shutdown: sessions end, the data is checkpointed.
  stop_parts INT 30 postgres
  say 'stopped'
}
trap stop_all EXIT
trap 'stop_all; exit 0' INT TERM

# Waits until `check` succeeds; stops everything if the part ends first or takes longer than `timeout` seconds.
wait_ready() {
  local name="$1" timeout="$2" pid deadline
  shift 2
  pid="$(pid_of "$name")"
  deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    alive "$pid" || die "$name stopped while starting (its lines above say why)"
    ((SECONDS < deadline)) || die "$name was not ready within ${timeout}s"
    sleep 0.2
  done
}

AS_ROOT=false
[ "$(id -u)" = 0 ] && AS_ROOT=true
# As root, PostgreSQL, Mosquitto and nginx's workers run as their own users, which must reach their directories.
reachable_by() { runuser -u "$1" -- test -x "$DIR"; }
if $AS_ROOT; then
  chmod o+x "$DIR"
  for user in postgres mosquitto www-data; do
    ! id "$user" >/dev/null 2>&1 || reachable_by "$user" ||
      die "the $user user cannot reach $DIR (a parent directory is closed to others): set CLUSTER_DIR to another directory"
  done
fi

SECRETS="$DIR/secrets.env"
if [ ! -f "$SECRETS" ]; then
  (
    umask 077
    printf 'PG_PASSWORD=%s\nMQTT_ADMIN_PASSWORD=%s\n' "$(secret)" "$(secret)" >"$SECRETS"
  )
fi
# shellcheck source=/dev/null
. "$SECRETS"
: "${PG_PASSWORD:?missing in $SECRETS}" "${MQTT_ADMIN_PASSWORD:?missing in $SECRETS}"

# --- PostgreSQL (as the postgres user when run as root, like scripts/with-postgres.sh) ------------------------------
PG_DIR="$DIR/postgres"
PG_AS=()
RUN_AS=()
if $AS_ROOT; then
  id postgres >/dev/null 2>&1 || useradd --system --home "$PG_DIR" postgres
  PG_AS=(setpriv --reuid=postgres --regid=postgres --init-groups)
  RUN_AS=(runuser -u postgres --)
fi
if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
  say "creating the PostgreSQL cluster in $PG_DIR"
  rm -rf "$PG_DIR"
  mkdir -p "$PG_DIR"
  (umask 077 && printf '%s\n' "$PG_PASSWORD" >"$PG_DIR/password")
  $AS_ROOT && chown -R postgres "$PG_DIR"
  "${RUN_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A scram-sha-256 --pwfile="$PG_DIR/password" \
    -E UTF8 --locale=C >/dev/null
  rm -f "$PG_DIR/password"
fi
PG_PORT="$(spare_port)"
start_part postgres "${PG_AS[@]}" "$PG_BIN/postgres" -D "$PG_DIR/data" -p "$PG_PORT" -k "$PG_DIR" \
  -c listen_addresses=127.0.0.1 -c max_connections=200
wait_ready postgres 60 "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"
export PGPASSWORD="$PG_PASSWORD"
psql_admin() { "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }
if [ -z "$(psql_admin -c "select 1 from pg_database where datname = 'edgeport'")" ]; then
  psql_admin -c 'create database edgeport' >/dev/null
fi
unset PGPASSWORD
DATABASE_URL="postgres://postgres:$PG_PASSWORD@127.0.0.1:$PG_PORT/edgeport"

# --- Mosquitto with the dynamic-security plugin ---------------------------------------------------------------------
MQ_DIR="$DIR/mosquitto"
mkdir -p "$MQ_DIR"
if [ ! -f "$MQ_DIR/dynamic-security.json" ]; then
  # Only the admin client: the instances (MQTT_DYNSEC) give it the rights a server needs and manage the devices' clients.
  mosquitto_ctrl dynsec init "$MQ_DIR/dynamic-security.json" "$MQTT_ADMIN" "$MQTT_ADMIN_PASSWORD" >/dev/null
  chmod 600 "$MQ_DIR/dynamic-security.json"
fi
MQTT_PORT="$(spare_port)"
sed -e "s|@USER@|$($AS_ROOT && echo 'user mosquitto')|" -e "s|@PLUGIN@|$PLUGIN|" -e "s|@DIR@|$MQ_DIR|g" \
  -e "s|@PORT@|$MQTT_PORT|" scripts/cluster/mosquitto.conf >"$MQ_DIR/mosquitto.conf"
# Mosquitto refuses to run as root: it switches to its own user, which must own what it writes.
$AS_ROOT && chown -R mosquitto:mosquitto "$MQ_DIR"
start_part mosquitto mosquitto -c "$MQ_DIR/mosquitto.conf"
wait_ready mosquitto 30 port_busy "$MQTT_PORT"

# --- the server instances -------------------------------------------------------------------------------------------
start_instance() {
  mkdir -p "$DIR/instance-$1"
  start_part "instance-$1" env PORT="$(instance_port "$1")" HOST=127.0.0.1 DATA_DIR="$DIR/instance-$1" \
    DATABASE_URL="$DATABASE_URL" MQTT_URL="mqtt://$MQTT_ADMIN:$MQTT_ADMIN_PASSWORD@127.0.0.1:$MQTT_PORT" \
    MQTT_DYNSEC=true INSTANCE_ID="instance-$1" MQTT_PORT=0 PUBLIC_PORT="$PORT" TRUSTED_PROXIES=127.0.0.1 \
    EDGEPORT_DEMO="${EDGEPORT_DEMO:-true}" apps/server/start.sh
}
instance_ready() { wait_ready "instance-$1" 180 curl -fsS "http://127.0.0.1:$(instance_port "$1")/readyz"; }
# All at once: migrations, the demo seed and the broker's server role are each done by one instance under a
# PostgreSQL advisory lock while the others wait and then find them done.
for i in $(seq "$INSTANCES"); do start_instance "$i"; done
for i in $(seq "$INSTANCES"); do instance_ready "$i"; done

# --- nginx in front -------------------------------------------------------------------------------------------------
NG_DIR="$DIR/nginx"
mkdir -p "$NG_DIR/tmp"
: >"$NG_DIR/access.log"
servers="$(for i in $(seq "$INSTANCES"); do printf '    server 127.0.0.1:%s;\\n' "$(instance_port "$i")"; done)"
# As root the master process stays root and its workers run as www-data, which write the temporary files.
sed -e "s|@USER@|$($AS_ROOT && echo 'user www-data;')|" -e "s|@DIR@|$NG_DIR|g" -e "s|@PORT@|$PORT|" \
  -e "s|^@SERVERS@\$|${servers%\\n}|" scripts/cluster/nginx.conf >"$NG_DIR/nginx.conf"
$AS_ROOT && chown -R www-data "$NG_DIR/tmp"
nginx -p "$NG_DIR" -e stderr -c "$NG_DIR/nginx.conf" -t -q || die "nginx refused its configuration ($NG_DIR/nginx.conf)"
start_part nginx nginx -p "$NG_DIR" -e stderr -c "$NG_DIR/nginx.conf" -g 'daemon off;'
wait_ready nginx 30 curl -fsS "http://127.0.0.1:$PORT/healthz"

instance_list="$(for i in $(seq "$INSTANCES"); do printf '127.0.0.1:%s ' "$(instance_port "$i")"; done)"
cat <<EOF

Edgeport cluster: $INSTANCES instances (${instance_list% }) behind nginx on http://localhost:$PORT
  PostgreSQL 127.0.0.1:$PG_PORT (database edgeport), Mosquitto on port $MQTT_PORT for devices (dynamic security)
  Data, logs and passwords under $DIR. Ctrl-C stops the cluster.

EOF

# Runs until Ctrl-C (the trap stops everything and exits 0). An instance that ends on its own is started again, as
# an operator's supervisor would (nginx sends its requests to the others meanwhile, the broker keeps its messages);
# one that ends within 10 s of its start (it cannot run), or any other part that ends, stops the cluster.
while :; do
  finished=''
  wait -n -p finished "${PIDS[@]}" && code=0 || code=$?
  name="$(name_of "${finished:-}")"
  if [[ $name != instance-* ]] || ((SECONDS - STARTED_AT[$name] < 10)); then
    die "${name:-a part} stopped on its own (exit code $code): stopping the cluster"
  fi
  say "$name stopped on its own (exit code $code): starting it again"
  forget_part "$finished"
  start_instance "${name#instance-}"
done
