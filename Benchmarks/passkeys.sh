#!/usr/bin/env bash
# Server CPU per passkey sign-in (options + ES256 assertion) beside a password sign-in and a refresh,
# from one release server on loopback.
#
#   Benchmarks/passkeys.sh                  # 15 password sign-ins, 300 passkey sign-ins, then the assertion against its floor
#
# Needs: curl, python3 with requests, cryptography and fido2.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18577}
BIN=${BIN:-.build/release/gatehouse}
WORK=$(mktemp -d /tmp/gatehouse-passkeys.XXXXXX)
BASE="http://127.0.0.1:$PORT"
[ -x "$BIN" ] || swift build -c release --product gatehouse
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT

GATEHOUSE_DATA_DIR="$WORK/data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning GATEHOUSE_ISSUER="$BASE" \
GATEHOUSE_PASSKEY_RP_ID=localhost GATEHOUSE_PASSKEY_ORIGINS=http://localhost:$PORT \
GATEHOUSE_REFRESH_REUSE_GRACE=0 "$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 400); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.01; done

curl -sf "$BASE/auth/signup" -H 'content-type: application/json' -d '{"email":"passkey@example.com","password":"bench pass 123"}' >/dev/null
for _ in $(seq 1 100); do ls "$WORK"/data/outbox/*confirm_signup.eml >/dev/null 2>&1 && break; sleep 0.05; done
CODE=$(grep -hoE '^ +[0-9]{6}' "$WORK"/data/outbox/*confirm_signup.eml | tail -1 | tr -d ' \r')
curl -sf "$BASE/auth/confirm" -H 'content-type: application/json' -d "{\"email\":\"passkey@example.com\",\"code\":\"$CODE\"}" >/dev/null

python3 Benchmarks/passkey_signin.py "$SERVER" "$BASE" "http://localhost:$PORT" passkey@example.com "bench pass 123" "${N_PASSWORD:-15}" "${N_FAST:-300}"
