#!/usr/bin/env bash
# GET /health, GET /me and POST /auth/google served by two release binaries on one host in one run,
# alternating (baseline, new, baseline, new, …) so host drift lands on both; started by
# `BASELINE_BIN=… Benchmarks/run.sh`. Each run starts its binary on a fresh data directory, signs one
# Google user in (the fake key server's token), then drives wrk and reads the server's CPU time
# (utime + stime from /proc) around each phase. The exchange's floor, two RSA-2048 signatures on one
# core, is measured with `openssl speed` right before and right after each exchange phase and averaged.
#
#   BASELINE_BIN=/tmp/gatehouse-old [BIN=.build/release/gatehouse] [ROUNDS=2] [DURATION=5s] Benchmarks/run.sh
#   STORE_URL='postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable' BASELINE_BIN=… Benchmarks/run.sh
#       # the same on PostgreSQL: each run in a schema of its own (search_path=gh_side_<n>), dropped after
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-2}
PORT=${PORT:-18555}
GOOGLE_PORT=$((PORT + 1))
BIN=${BIN:-.build/release/gatehouse}
BASE="http://127.0.0.1:$PORT"
WORK=$(mktemp -d /tmp/gatehouse-side.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

python3 Benchmarks/fake_google.py "$GOOGLE_PORT" bench-client "$WORK/google-token" &
pids+=($!)
for _ in $(seq 1 200); do [ -s "$WORK/google-token" ] && break; sleep 0.05; done
GOOGLE_TOKEN=$(cat "$WORK/google-token")
cat >"$WORK/google.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"id_token":"$GOOGLE_TOKEN"}'
LUA

signs() { openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ {print $6}'; }
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' /proc/"$SERVER"/stat; }
cpu_per_request() { # connections script path → the server's CPU µs per request
    local before after out
    before=$(server_cpu)
    out=$(wrk -t2 -c"$1" -d"$DURATION" ${2:+-s "$2"} "$BASE$3")
    after=$(server_cpu)
    if grep -q "Non-2xx" <<<"$out"; then echo "non-2xx answers on $3" >&2; grep "Non-2xx" <<<"$out" >&2; exit 1; fi
    python3 -c "import re,sys; n=int(re.search(r'(\d+) requests in', sys.argv[1]).group(1)); print(f'{($after - $before) / n * 1e6:.1f}')" "$out"
}

one_run() { # label binary → "label health-µs me-µs google-µs two-signatures-µs"
    local data="$WORK/data-$RANDOM$RANDOM" access h m g s1 s2 url=""
    RUN=$((${RUN:-0} + 1))
    if [ -n "${STORE_URL:-}" ]; then url="$STORE_URL&search_path=gh_side_$$_$RUN"; fi
    env ${url:+GATEHOUSE_DATABASE_URL="$url"} GATEHOUSE_DATA_DIR="$data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning \
    GATEHOUSE_GOOGLE_CLIENT_IDS=bench-client GATEHOUSE_GOOGLE_JWKS_URL="http://127.0.0.1:$GOOGLE_PORT/certs" \
    GATEHOUSE_ISSUER="$BASE" GATEHOUSE_TRUSTED_PROXIES=127.0.0.1 "$2" serve >"$WORK/server-$1.log" 2>&1 &
    SERVER=$!
    pids+=($SERVER)
    for _ in $(seq 1 400); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.01; done
    access=$(curl -sf "$BASE/auth/google" -H 'content-type: application/json' -d "{\"id_token\":\"$GOOGLE_TOKEN\"}" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
    printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$access" >"$WORK/me.lua"
    curl -sf "$BASE/me" -H "Authorization: Bearer $access" >/dev/null  # the profile exists before the run
    h=$(cpu_per_request 64 "" /health)
    m=$(cpu_per_request 64 "$WORK/me.lua" /me)
    s1=$(signs)
    g=$(cpu_per_request 16 "$WORK/google.lua" /auth/google)
    s2=$(signs)
    kill "$SERVER"
    wait "$SERVER" 2>/dev/null || true
    if [ -n "$url" ]; then psql "$STORE_URL" -qc "DROP SCHEMA gh_side_$$_$RUN CASCADE" >/dev/null 2>&1 || true; fi
    echo "$1 $h $m $g $(python3 -c "print(f'{2e6 / (($s1 + $s2) / 2):.1f}')")"
}

echo "Side by side — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, wrk -t2 -d$DURATION, $ROUNDS rounds, store: ${STORE_URL:+PostgreSQL}${STORE_URL:-SQLite}"
echo "baseline: $BASELINE_BIN"
echo "new:      $BIN"
: >"$WORK/results"
for _ in $(seq 1 "$ROUNDS"); do
    one_run baseline "$BASELINE_BIN" >>"$WORK/results"
    one_run new "$BIN" >>"$WORK/results"
done
python3 - "$WORK/results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
print()
print("| run | /health CPU µs | /me CPU µs | /me ÷ /health | /auth/google CPU µs | two signatures µs | exchange ÷ two signatures |")
print("|---|---:|---:|---:|---:|---:|---:|")
per = {"baseline": [], "new": []}
for label, h, m, g, two in rows:
    h, m, g, two = map(float, (h, m, g, two))
    per[label].append((h, m, g, two))
    print(f"| {label} | {h:.1f} | {m:.1f} | {m / h:.2f} | {g:.0f} | {two:.0f} | {g / two:.2f} |")
print()
mean = lambda label, f: statistics.mean(f(r) for r in per[label])
for name, f in [("/health CPU µs", lambda r: r[0]), ("/me CPU µs", lambda r: r[1]), ("/me ÷ /health", lambda r: r[1] / r[0]),
                ("/auth/google CPU µs", lambda r: r[2]), ("exchange ÷ two signatures", lambda r: r[2] / r[3])]:
    old, new = mean("baseline", f), mean("new", f)
    print(f"{name:28s} baseline {old:8.2f}   new {new:8.2f}   new ÷ baseline {new / old:.2f}")
print("targets: /me ÷ /health ≤ 1.2; exchange ÷ two signatures ≤ 1.2 (SQLite)")
PY
