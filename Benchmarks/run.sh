#!/usr/bin/env bash
# Gatehouse benchmark: a release build of the server on loopback, loaded with wrk (Debian's package).
# Prints requests/s and latency percentiles for the hot endpoints, and ratios to a baseline measured
# in the same run (absolute numbers on shared machines are noise; ratios are what we track).
#
#   Benchmarks/run.sh                 # everything, ~3 minutes after the build
#   DURATION=5s Benchmarks/run.sh     # shorter runs
#   BASELINE_BIN=/tmp/gatehouse-old Benchmarks/run.sh
#       # side by side: GET /health, GET /me and POST /auth/google against the previous binary and
#       # this one, alternating (old, new, old, new; ROUNDS=2 by default), each on a fresh data
#       # directory; prints the server's CPU per request, /me ÷ /health and the exchange ÷ two RSA-2048
#       # signatures (openssl speed right before and after each exchange run) for every run, and new ÷ old
#
# Needs: wrk, curl, python3 with PyJWT and cryptography (for the fake Google key server), openssl.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
PORT=${PORT:-18555}
GOOGLE_PORT=$((PORT + 1))
BIN=${BIN:-.build/release/gatehouse}
WORK=$(mktemp -d /tmp/gatehouse-bench.XXXXXX)
BASE="http://127.0.0.1:$PORT"
CORES=$(nproc)

for tool in wrk curl python3 openssl; do command -v "$tool" >/dev/null || { echo "missing: $tool (apt-get install wrk curl openssl)"; exit 1; }; done
[ -x "$BIN" ] || swift build -c release --product gatehouse
if [ -n "${BASELINE_BIN:-}" ]; then
    [ -x "$BASELINE_BIN" ] || { echo "BASELINE_BIN is not an executable: $BASELINE_BIN"; exit 1; }
    exec env BIN="$BIN" BASELINE_BIN="$BASELINE_BIN" DURATION="$DURATION" PORT="$PORT" ${STORE_URL:+STORE_URL="$STORE_URL"} Benchmarks/side_by_side.sh
fi

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

python3 Benchmarks/fake_google.py "$GOOGLE_PORT" bench-client "$WORK/google-token" &
pids+=($!)

start_server() {
    GATEHOUSE_DATA_DIR="$WORK/data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning \
    GATEHOUSE_GOOGLE_CLIENT_IDS=bench-client GATEHOUSE_GOOGLE_JWKS_URL="http://127.0.0.1:$GOOGLE_PORT/certs" \
    GATEHOUSE_ISSUER="$BASE" GATEHOUSE_TRUSTED_PROXIES=127.0.0.1 GATEHOUSE_MAIL_COOLDOWN=1 "$BIN" serve >"$WORK/server.log" 2>&1 &
    SERVER=$!
    pids+=($SERVER)
}

wait_ready() {
    for _ in $(seq 1 400); do curl -sf "$BASE/health" >/dev/null && return 0; sleep 0.01; done
    echo "server did not start"; cat "$WORK/server.log"; exit 1
}

# 1. Start-up: first start (creates keys), then a restart to first 200 on /health.
start_server; wait_ready; kill "$SERVER"; wait "$SERVER" 2>/dev/null || true
t0=$(date +%s%N); start_server; wait_ready; t1=$(date +%s%N)
STARTUP_MS=$(( (t1 - t0) / 1000000 ))

# 2. A user and an access token.
curl -sf "$BASE/auth/signup" -H 'content-type: application/json' -d '{"email":"bench@example.com","password":"bench pass 123"}' >/dev/null
# Mail is written by a background service just after the answer: wait for it.
for _ in $(seq 1 100); do ls "$WORK"/data/outbox/*confirm_signup.eml >/dev/null 2>&1 && break; sleep 0.05; done
CODE=$(grep -hoE '^ +[0-9]{6}' "$WORK"/data/outbox/*confirm_signup.eml | tail -1 | tr -d ' \r')
curl -sf "$BASE/auth/confirm" -H 'content-type: application/json' -d "{\"email\":\"bench@example.com\",\"code\":\"$CODE\"}" >/dev/null
ACCESS=$(curl -sf "$BASE/auth/signin" -H 'content-type: application/json' -d '{"email":"bench@example.com","password":"bench pass 123"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')

cat >"$WORK/me.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $ACCESS"
LUA
cat >"$WORK/signin.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"bench@example.com","password":"bench pass 123"}'
LUA
GOOGLE_TOKEN=$(cat "$WORK/google-token")
cat >"$WORK/google.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"id_token":"$GOOGLE_TOKEN"}'
LUA
curl -sf "$BASE/auth/google" -H 'content-type: application/json' -d "{\"id_token\":\"$GOOGLE_TOKEN\"}" >/dev/null || { echo "google exchange failed"; exit 1; }

# The server's CPU time (user + system) in seconds.
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' /proc/"$SERVER"/stat; }

# wrk → "rps p50 p90 p99 non2xx cpu-us" (cpu-us: the server's CPU per request, which host noise moves
# far less than req/s, since it does not count the time the server waited for a core)
measure() { # connections script path
    local out before after
    before=$(server_cpu)
    out=$(wrk -t2 -c"$1" -d"$DURATION" --latency ${2:+-s "$2"} "$BASE$3")
    after=$(server_cpu)
    printf "%s\n" "$out" | python3 Benchmarks/wrk_summary.py "$(python3 -c "print($after - $before)")"
}

# Waits until the server has finished queued work (e.g. password hashes) so phases do not overlap.
wait_idle() {
    local before after
    for _ in $(seq 1 120); do
        before=$(awk '{print $14 + $15}' /proc/"$SERVER"/stat); sleep 0.5; after=$(awk '{print $14 + $15}' /proc/"$SERVER"/stat)
        [ $((after - before)) -le 2 ] && return 0
    done
}

row() { printf "| %-44s | %9s | %8s | %8s | %8s | %6s | %9s |\n" "$@"; }
echo
echo "Gatehouse benchmark — $(date -u +%Y-%m-%dT%H:%MZ), $CORES cores, wrk -t2 -d$DURATION, release build, log level warning"
row "endpoint (connections)" "req/s" "p50 ms" "p90 ms" "p99 ms" "non-2xx" "CPU µs/req"
row "---" "---" "---" "---" "---" "---" "---"
read -r H_RPS H_P50 H_P90 H_P99 H_BAD H_CPU < <(measure 64 "" /health);                row "GET /health (64)" "$H_RPS" "$H_P50" "$H_P90" "$H_P99" "$H_BAD" "$H_CPU"
read -r M_RPS M_P50 M_P90 M_P99 M_BAD M_CPU < <(measure 64 "$WORK/me.lua" /me);        row "GET /me with a valid access token (64)" "$M_RPS" "$M_P50" "$M_P90" "$M_P99" "$M_BAD" "$M_CPU"
read -r I_RPS I_P50 I_P90 I_P99 I_BAD I_CPU < <(measure 4 "" /health);                 row "GET /health idle (4)" "$I_RPS" "$I_P50" "$I_P90" "$I_P99" "$I_BAD" "$I_CPU"

# /health while 16 clients sign in continuously (scrypt N=2^17 on the bounded pool).
wrk -t1 -c16 -d"$DURATION" --latency -s "$WORK/signin.lua" "$BASE/auth/signin" >"$WORK/signin.out" 2>&1 &
SIGNIN=$!
sleep 1
read -r L_RPS L_P50 L_P90 L_P99 L_BAD L_CPU < <(measure 4 "" /health);                 row "GET /health while 16 clients sign in (4)" "$L_RPS" "$L_P50" "$L_P90" "$L_P99" "$L_BAD" "$L_CPU"
wait "$SIGNIN" || true
wait_idle
S_RPS=$(grep -oE "Requests/sec:\s+[0-9.]+" "$WORK/signin.out" | grep -oE "[0-9.]+$")
row "POST /auth/signin, the 16 clients" "$S_RPS" "" "" "" "$(grep -oE 'Non-2xx or 3xx responses: [0-9]+' "$WORK/signin.out" | grep -oE '[0-9]+$' || echo 0)"

# One address floods sign-in (each request a new account, a wrong password) while /health and a
# legitimate sign-in from another address are timed: neither may wait behind the flood's hashes.
legit_signin_ms() { # "median max" of 5 sequential sign-ins from another address, in ms
    for _ in 1 2 3 4 5; do
        curl -s -o /dev/null -w '%{time_total}\n' "$BASE/auth/signin" -H 'content-type: application/json' -H 'X-Forwarded-For: 198.51.100.20' \
            -d '{"email":"bench@example.com","password":"bench pass 123"}'
    done | sort -n | python3 -c 'import sys; v = [float(x) * 1000 for x in sys.stdin.read().split()]; print(round(v[2]), round(v[-1]))'
}
read -r QUIET_MED QUIET_MAX < <(legit_signin_ms)
wrk -t1 -c32 -d"$DURATION" -s Benchmarks/flood.lua "$BASE/auth/signin" >"$WORK/flood.out" 2>&1 &
FLOOD=$!
sleep 0.5
read -r FLOOD_MED FLOOD_MAX < <(legit_signin_ms)
read -r F_RPS F_P50 F_P90 F_P99 F_BAD F_CPU < <(measure 4 "" /health);                 row "GET /health while one address floods sign-in (4)" "$F_RPS" "$F_P50" "$F_P90" "$F_P99" "$F_BAD" "$F_CPU"
wait "$FLOOD" || true
wait_idle
row "POST /auth/signin, the flood (32, one address)" "$(grep -oE "Requests/sec:\s+[0-9.]+" "$WORK/flood.out" | grep -oE "[0-9.]+$")" "" "" "" "$(grep -oE 'Non-2xx or 3xx responses: [0-9]+' "$WORK/flood.out" | grep -oE '[0-9]+$' || echo 0)"
row "5 sign-ins from another address, quiet" "" "$QUIET_MED" "" "max $QUIET_MAX" ""
row "the same while the flood starts" "" "$FLOOD_MED" "" "max $FLOOD_MAX" ""

# The signing ceiling, measured right before and right after the exchange run (shared machines drift).
signs() { openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ {print $6}'; }
SIGNS_BEFORE=$(signs)
read -r G_RPS G_P50 G_P90 G_P99 G_BAD G_CPU < <(measure 16 "$WORK/google.lua" /auth/google); row "POST /auth/google with a valid token (16)" "$G_RPS" "$G_P50" "$G_P90" "$G_P99" "$G_BAD" "$G_CPU"
SIGNS_AFTER=$(signs)

wait_idle
RSS_MB=$(awk '/VmRSS/ {printf "%.1f", $2/1024}' /proc/"$SERVER"/status)
PEAK_MB=$(awk '/VmHWM/ {printf "%.1f", $2/1024}' /proc/"$SERVER"/status)
SIGNS=$(python3 -c "print(($SIGNS_BEFORE + $SIGNS_AFTER) / 2)")
# Two RSA-2048 signatures on one core, in µs: the exchange's cryptographic floor.
TWO_SIGNS_US=$(python3 -c "print(2e6 / $SIGNS)")
CEILING=$(python3 -c "print(round($SIGNS * $CORES / 2))")

echo
python3 - <<PY
me, health = $M_RPS, $H_RPS
idle99, load99 = $I_P99, $L_P99
google, ceiling = $G_RPS, $CEILING
print(f"GET /me ÷ GET /health, req/s:                 {me/health:.2f}   (target ≥ 0.50)")
print(f"GET /me p99 at 64 connections:               {$M_P99:.2f} ms (target < 10 ms)")
print(f"server CPU per request: GET /health {$H_CPU} µs, GET /me {$M_CPU} µs, POST /auth/google {$G_CPU} µs")
print(f"GET /me ÷ GET /health, server CPU:           {$M_CPU/$H_CPU:.2f}   (target ≤ 1.2)")
print(f"POST /auth/google ÷ two RSA-2048 signatures: {$G_CPU/$TWO_SIGNS_US:.2f}   (server CPU; target ≤ 1.2; two signatures = {$TWO_SIGNS_US:.0f} µs)")
print(f"server CPU per request, the other phases: /health idle {$I_CPU} µs, while 16 sign in {$L_CPU} µs, while one address floods {$F_CPU} µs")
print(f"/health p99 under sign-in load ÷ idle p99:   {load99/idle99:.2f}   (target < 5)")
print(f"POST /auth/google ÷ RSA-2048 signing ceiling: {google/ceiling:.2f}   (target ≥ 0.60; ceiling = {$SIGNS:.0f} signs/s [openssl speed before {$SIGNS_BEFORE:.0f}, after {$SIGNS_AFTER:.0f}] × {$CORES} cores ÷ 2 = {ceiling:.0f}/s)")
print(f"resident memory after the runs:              {$RSS_MB} MB (target < 100 MB; peak while hashing {$PEAK_MB} MB)")
print(f"restart to first 200 on /health:             {$STARTUP_MS} ms (target < 1000 ms)")
print(f"/health p99 while one address floods ÷ idle: {$F_P99/idle99:.2f}")
print(f"sign-in from another address, flood ÷ quiet: median {$FLOOD_MED/$QUIET_MED:.2f}, max {$FLOOD_MAX/$QUIET_MAX:.2f}   ({$FLOOD_MED}/{$FLOOD_MAX} ms ÷ {$QUIET_MED}/{$QUIET_MAX} ms)")
PY

# Registered and unknown addresses must answer forgot-password and resend in the same time.
python3 Benchmarks/enumeration_timing.py "$BASE" "${TIMING_PAIRS:-100}" forgot
python3 Benchmarks/enumeration_timing.py "$BASE" "${TIMING_PAIRS:-100}" resend
