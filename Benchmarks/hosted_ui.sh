#!/usr/bin/env bash
# Server CPU per step of the hosted UI's code flow (the form sign-in, a single-sign-on authorize, the
# code exchange) beside a password sign-in and a refresh, from one release server on loopback.
#
#   Benchmarks/hosted_ui.sh                 # 20 password sign-ins, 300 of each fast step
#   N_PASSWORD=10 N_FAST=100 Benchmarks/hosted_ui.sh
#   TOKEN_ALG=ES256 Benchmarks/hosted_ui.sh  # the server signs with P-256 (Benchmarks/es256.sh runs both)
#
# Each run ends with the code exchange against its floor, two signatures (Benchmarks/crypto_floors.py).
#
# Needs: curl, python3 with requests.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18576}
BIN=${BIN:-.build/release/gatehouse}
WORK=$(mktemp -d /tmp/gatehouse-hosted.XXXXXX)
BASE="http://127.0.0.1:$PORT"
CALLBACK=http://127.0.0.1:9/callback
[ -x "$BIN" ] || swift build -c release --product gatehouse
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT

GATEHOUSE_DATA_DIR="$WORK/data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning GATEHOUSE_ISSUER="$BASE" \
GATEHOUSE_HOSTED_UI=true GATEHOUSE_CLIENT_ID=bench-client GATEHOUSE_CALLBACK_URLS=$CALLBACK \
GATEHOUSE_REFRESH_REUSE_GRACE=0 GATEHOUSE_TOKEN_ALG=${TOKEN_ALG:-RS256} "$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 400); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.01; done

curl -sf "$BASE/auth/signup" -H 'content-type: application/json' -d '{"email":"hosted@example.com","password":"bench pass 123"}' >/dev/null
for _ in $(seq 1 100); do ls "$WORK"/data/outbox/*confirm_signup.eml >/dev/null 2>&1 && break; sleep 0.05; done
CODE=$(grep -hoE '^ +[0-9]{6}' "$WORK"/data/outbox/*confirm_signup.eml | tail -1 | tr -d ' \r')
curl -sf "$BASE/auth/confirm" -H 'content-type: application/json' -d "{\"email\":\"hosted@example.com\",\"code\":\"$CODE\"}" >/dev/null

TOKEN_ALG=${TOKEN_ALG:-RS256} python3 Benchmarks/hosted_ui_flow.py "$SERVER" "$BASE" bench-client "$CALLBACK" hosted@example.com "bench pass 123" \
    "${N_PASSWORD:-20}" "${N_FAST:-300}"
