#!/usr/bin/env bash
# Gatehouse scale-out benchmark (issue 14): one instance on SQLite, one instance on PostgreSQL and two
# instances on one PostgreSQL database, each behind the same nginx (round robin), loaded with wrk.
# Prints requests/s and latency percentiles for GET /me and the Google exchange, and the ratios of each
# set-up to one instance on SQLite, all measured in this run.
#
#   Benchmarks/scale.sh                 # ~2 minutes after the build
#   DURATION=5s Benchmarks/scale.sh
#
# Needs: wrk, curl, nginx (nginx-light), PostgreSQL's server binaries (postgresql), python3 with PyJWT
# and cryptography (the fake Google key server), a release build (built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
PORT=${PORT:-18600}
BIN=${BIN:-.build/release/gatehouse}
WORK=$(mktemp -d /tmp/gatehouse-scale.XXXXXX)
CORES=$(nproc)
LB="http://127.0.0.1:$PORT"
GOOGLE_PORT=$((PORT + 1))
PG_PORT=$((PORT + 2))
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
MASTER_KEY=$(head -c 32 /dev/urandom | base64)

for tool in wrk curl nginx python3; do command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "missing: $tool (apt-get install wrk curl nginx-light)"; exit 1; }; done
[ -x "$PG_BIN/initdb" ] || { echo "missing: PostgreSQL (apt-get install postgresql)"; exit 1; }
[ -x "$BIN" ] || swift build -c release --product gatehouse

pids=()
as_postgres() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=postgres --regid=postgres --clear-groups -- "$@"; else "$@"; fi; }
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    as_postgres "$PG_BIN/pg_ctl" -D "$WORK/pg" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# PostgreSQL of its own, tuned as a disposable benchmark database (no fsync; the same for every set-up).
mkdir -p "$WORK/pg"
[ "$(id -u)" = 0 ] && chown postgres "$WORK" "$WORK/pg"
as_postgres "$PG_BIN/initdb" -D "$WORK/pg" -A trust -U postgres >/dev/null
as_postgres "$PG_BIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg.log" -w \
    -o "-p $PG_PORT -k $WORK -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off" start >/dev/null

python3 Benchmarks/fake_google.py "$GOOGLE_PORT" bench-client "$WORK/google-token" &
pids+=($!)

# nginx in front of the given ports; every set-up pays the same hop.
balance() {
    local servers=""
    for port in "$@"; do servers="$servers server 127.0.0.1:$port;"; done
    [ -f "$WORK/nginx.pid" ] && { kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true; sleep 0.5; }
    cat >"$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx.err warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx-body;
    proxy_temp_path $WORK/nginx-proxy;
    upstream gatehouse { $servers keepalive 64; }
    server {
        listen 127.0.0.1:$PORT;
        location / { proxy_pass http://gatehouse; proxy_http_version 1.1; proxy_set_header Connection ""; }
    }
}
CONF
    /usr/sbin/nginx -p "$WORK" -c "$WORK/nginx.conf"
    for _ in $(seq 1 200); do curl -sf "$LB/health" >/dev/null && return 0; sleep 0.02; done
    echo "nginx did not start"; cat "$WORK/nginx.err"; exit 1
}

instances=()
start_instance() { # name port database-url
    local dir="$WORK/$1"
    mkdir -p "$dir"
    env ${3:+GATEHOUSE_DATABASE_URL="$3"} \
    GATEHOUSE_DATA_DIR="$dir/data" GATEHOUSE_HTTP_PORT=$2 GATEHOUSE_LOG_LEVEL=warning GATEHOUSE_MASTER_KEY="$MASTER_KEY" \
    GATEHOUSE_GOOGLE_CLIENT_IDS=bench-client GATEHOUSE_GOOGLE_JWKS_URL="http://127.0.0.1:$GOOGLE_PORT/certs" \
    GATEHOUSE_ISSUER="http://bench.test" "$BIN" serve >"$dir/server.log" 2>&1 &
    instances+=($!)
    pids+=($!)
    for _ in $(seq 1 500); do curl -sf "http://127.0.0.1:$2/ready" >/dev/null && return 0; sleep 0.02; done
    echo "instance $1 did not start"; cat "$dir/server.log"; exit 1
}
stop_instances() {
    for pid in "${instances[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    instances=()
}

# A confirmed user and its access token, through the balancer.
access_token() { # email
    curl -sf "$LB/auth/signup" -H 'content-type: application/json' -d "{\"email\":\"$1\",\"password\":\"bench pass 123\"}" >/dev/null
    local code=""
    for _ in $(seq 1 200); do
        code=$(grep -lr "$1" "$WORK"/*/data/outbox/ 2>/dev/null | xargs -r grep -hoE '^ +[0-9]{6}' | tail -1 | tr -d ' \r')
        [ -n "$code" ] && break
        sleep 0.05
    done
    curl -sf "$LB/auth/confirm" -H 'content-type: application/json' -d "{\"email\":\"$1\",\"code\":\"$code\"}" >/dev/null
    curl -sf "$LB/auth/signin" -H 'content-type: application/json' -d "{\"email\":\"$1\",\"password\":\"bench pass 123\"}" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])'
}

measure() { # connections script path → "rps p50 p90 p99 non2xx"
    local out
    out=$(wrk -t2 -c"$1" -d"$DURATION" --latency -s "$2" "$LB$3")
    printf "%s\n" "$out" | python3 Benchmarks/wrk_summary.py
}

for _ in $(seq 1 200); do [ -s "$WORK/google-token" ] && break; sleep 0.05; done
GOOGLE_TOKEN=$(cat "$WORK/google-token")
cat >"$WORK/google.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"id_token":"$GOOGLE_TOKEN"}'
LUA

run_setup() { # label email → sets ME_* and EX_*
    local access
    access=$(access_token "$2")
    printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$access" >"$WORK/me.lua"
    curl -sf "$LB/auth/google" -H 'content-type: application/json' -d "{\"id_token\":\"$GOOGLE_TOKEN\"}" >/dev/null || { echo "exchange failed"; exit 1; }
    read -r ME_RPS ME_P50 _ ME_P99 ME_BAD < <(measure 64 "$WORK/me.lua" /me)
    read -r EX_RPS EX_P50 _ EX_P99 EX_BAD < <(measure 16 "$WORK/google.lua" /auth/google)
    printf "| %-34s | %8s | %6s | %7s | %5s | %8s | %6s | %7s | %5s |\n" "$1" "$ME_RPS" "$ME_P50" "$ME_P99" "$ME_BAD" "$EX_RPS" "$EX_P50" "$EX_P99" "$EX_BAD"
}

echo
echo "Gatehouse scale-out — $(date -u +%Y-%m-%dT%H:%MZ), $CORES cores, wrk -t2 -d$DURATION (GET /me: 64 connections, exchange: 16), behind nginx"
printf "| %-34s | %8s | %6s | %7s | %5s | %8s | %6s | %7s | %5s |\n" "set-up" "/me r/s" "p50 ms" "p99 ms" "!2xx" "exch r/s" "p50 ms" "p99 ms" "!2xx"
printf "|%s|\n" "---|---|---|---|---|---|---|---|---"

start_instance sqlite $((PORT + 10)) ""
balance $((PORT + 10))
run_setup "1 instance, SQLite" "sqlite@example.com"
SQ_ME=$ME_RPS SQ_EX=$EX_RPS
stop_instances

PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres?sslmode=disable&search_path=gatehouse_bench"
start_instance pg1 $((PORT + 11)) "$PG_URL"
balance $((PORT + 11))
run_setup "1 instance, PostgreSQL" "pg1@example.com"
P1_ME=$ME_RPS P1_EX=$EX_RPS
start_instance pg2 $((PORT + 12)) "$PG_URL"
balance $((PORT + 11)) $((PORT + 12))
run_setup "2 instances, one PostgreSQL" "pg2@example.com"
P2_ME=$ME_RPS P2_EX=$EX_RPS
stop_instances

echo
python3 - <<PY
sq_me, sq_ex, p1_me, p1_ex, p2_me, p2_ex = $SQ_ME, $SQ_EX, $P1_ME, $P1_EX, $P2_ME, $P2_EX
print(f"GET /me   req/s ÷ 1 instance on SQLite: 1 on PostgreSQL {p1_me/sq_me:.2f}, 2 on PostgreSQL {p2_me/sq_me:.2f} (2 ÷ 1 on PostgreSQL: {p2_me/p1_me:.2f})")
print(f"exchange  req/s ÷ 1 instance on SQLite: 1 on PostgreSQL {p1_ex/sq_ex:.2f}, 2 on PostgreSQL {p2_ex/sq_ex:.2f} (2 ÷ 1 on PostgreSQL: {p2_ex/p1_ex:.2f})")
print(f"All of wrk, nginx, the instances and PostgreSQL share these {$CORES} cores: a second instance adds no CPU here,")
print("so the 2 ÷ 1 ratios show what a second instance costs (coordination, one more process), not what it adds on its own host.")
PY
