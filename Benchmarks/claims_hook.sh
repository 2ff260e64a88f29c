#!/usr/bin/env bash
# What the custom-claims hook costs per sign-in and per refresh: the same series against a server
# without the hook and one posting to a local receiver (Python, verifying each Standard Webhooks
# signature), both on loopback.
#
#   Benchmarks/claims_hook.sh                 # 15 password sign-ins and 300 refreshes per server
#   N_SIGNIN=10 N_REFRESH=200 Benchmarks/claims_hook.sh
#
# Needs: curl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18579}
HOOK_PORT=${HOOK_PORT:-18580}
BIN=${BIN:-.build/release/gatehouse}
WORK=$(mktemp -d /tmp/gatehouse-claims-hook.XXXXXX)
BASE="http://127.0.0.1:$PORT"
SECRET="whsec_$(head -c 32 /dev/urandom | base64)"
[ -x "$BIN" ] || swift build -c release --product gatehouse
SERVER=""
trap 'kill $SERVER $RECEIVER 2>/dev/null || true; rm -rf "$WORK"' EXIT

python3 Benchmarks/claims_hook_bench.py receive "$HOOK_PORT" "$SECRET" &
RECEIVER=$!

run() {  # $1: label, then extra environment
    local label=$1
    shift
    rm -rf "$WORK/data"
    env GATEHOUSE_DATA_DIR="$WORK/data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning GATEHOUSE_ISSUER="$BASE" \
        GATEHOUSE_REFRESH_REUSE_GRACE=0 "$@" "$BIN" serve >"$WORK/server.log" 2>&1 &
    SERVER=$!
    for _ in $(seq 1 400); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.01; done
    curl -sf "$BASE/auth/signup" -H 'content-type: application/json' -d '{"email":"hook@example.com","password":"bench pass 123"}' >/dev/null
    for _ in $(seq 1 100); do ls "$WORK"/data/outbox/*confirm_signup.eml >/dev/null 2>&1 && break; sleep 0.05; done
    CODE=$(grep -hoE '^ +[0-9]{6}' "$WORK"/data/outbox/*confirm_signup.eml | tail -1 | tr -d ' \r')
    curl -sf "$BASE/auth/confirm" -H 'content-type: application/json' -d "{\"email\":\"hook@example.com\",\"code\":\"$CODE\"}" >/dev/null
    python3 Benchmarks/claims_hook_bench.py measure "$SERVER" "$BASE" "$label" "${N_SIGNIN:-15}" "${N_REFRESH:-300}"
    kill "$SERVER"
    wait "$SERVER" 2>/dev/null || true
}

run "without the hook"
run "with the hook" GATEHOUSE_CLAIMS_HOOK_URL="http://127.0.0.1:$HOOK_PORT/hook" GATEHOUSE_CLAIMS_HOOK_SECRET="$SECRET"
