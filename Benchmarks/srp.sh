#!/usr/bin/env bash
# Server CPU per sign-in: Cognito SRP (USER_SRP_AUTH, pycognito as the client) against a password
# sign-in (scrypt at the production parameters), from one release server on loopback.
#
#   Benchmarks/srp.sh                  # 20 password and 100 SRP sign-ins, then SRP against its floor
#   N_PASSWORD=10 N_SRP=50 Benchmarks/srp.sh
#
# Needs: curl, python3 with boto3 and pycognito.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18575}
BIN=${BIN:-.build/release/gatehouse}
WORK=$(mktemp -d /tmp/gatehouse-srp.XXXXXX)
BASE="http://127.0.0.1:$PORT"
POOL=us-east-1_Bench1
[ -x "$BIN" ] || swift build -c release --product gatehouse
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT

GATEHOUSE_DATA_DIR="$WORK/data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning GATEHOUSE_ISSUER="$BASE" \
GATEHOUSE_COGNITO_API=true GATEHOUSE_POOL_ID=$POOL GATEHOUSE_CLIENT_ID=bench-client "$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 400); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.01; done

curl -sf "$BASE/auth/signup" -H 'content-type: application/json' -d '{"email":"srp@example.com","password":"bench pass 123"}' >/dev/null
for _ in $(seq 1 100); do ls "$WORK"/data/outbox/*confirm_signup.eml >/dev/null 2>&1 && break; sleep 0.05; done
CODE=$(grep -hoE '^ +[0-9]{6}' "$WORK"/data/outbox/*confirm_signup.eml | tail -1 | tr -d ' \r')
curl -sf "$BASE/auth/confirm" -H 'content-type: application/json' -d "{\"email\":\"srp@example.com\",\"code\":\"$CODE\"}" >/dev/null

python3 Benchmarks/srp_signin.py "$SERVER" "$BASE" bench-client "$POOL" srp@example.com "bench pass 123" "${N_PASSWORD:-20}" "${N_SRP:-100}"
