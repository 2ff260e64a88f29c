#!/usr/bin/env bash
# Fuzzes the running server against its own contract with schemathesis (PyPI): every operation in
# /openapi.yaml, every check (a 5xx, a schema-valid request refused, a schema-violating one accepted,
# an undocumented status or header, a method the document does not declare answered other than 405).
# The server runs with the seed 003 API, phone sign-in and passkeys on, so every documented operation answers,
# and the protected operations get a signed-in user's bearer token. A fixed seed keeps CI repeatable.
#
#   Tests/contract/schemathesis.sh [path to the gatehouse binary]     (default .build/debug/gatehouse)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-.build/debug/gatehouse}
PORT=${PORT:-18765}
BASE="http://127.0.0.1:$PORT"
WORK=$(mktemp -d /tmp/gatehouse-schemathesis.XXXXXX)
command -v st >/dev/null || { echo "schemathesis is not installed (pip install schemathesis)"; exit 1; }

GATEHOUSE_DATA_DIR="$WORK/data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning GATEHOUSE_SCRYPT_LOG_N=10 \
GATEHOUSE_COMPAT_API_V1=true GATEHOUSE_SMS_COUNTRIES=US,CA,GB GATEHOUSE_PASSKEY_RP_ID=localhost GATEHOUSE_ISSUER="$BASE" \
GATEHOUSE_THROTTLE_DELAY_MS=0 \
    "$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 200); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.05; done

# A signed-in user for the protected operations.
curl -sf "$BASE/auth/signup" -H 'content-type: application/json' -d '{"email":"fuzz@example.com","password":"fuzz horse 99"}' >/dev/null
for _ in $(seq 1 100); do ls "$WORK"/data/outbox/*confirm_signup.eml >/dev/null 2>&1 && break; sleep 0.05; done
CODE=$(grep -hoE '^ +[0-9]{6}' "$WORK"/data/outbox/*confirm_signup.eml | tail -1 | tr -d ' \r')
curl -sf "$BASE/auth/confirm" -H 'content-type: application/json' -d "{\"email\":\"fuzz@example.com\",\"code\":\"$CODE\"}" >/dev/null
ACCESS=$(curl -sf "$BASE/auth/signin" -H 'content-type: application/json' -d '{"email":"fuzz@example.com","password":"fuzz horse 99"}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')

# Signing out everywhere and deleting the account end the bearer's session, so they run last.
fuzz() {
    st --config-file Tests/contract/schemathesis.toml run "$BASE/openapi.yaml" --url "$BASE" --checks all \
        --max-examples "${MAX_EXAMPLES:-25}" --workers 1 --seed "${SEED:-20261126}" --header "Authorization: Bearer $ACCESS" \
        --wait-for-schema 10 "$@"
}
fuzz --exclude-tag admin --exclude-operation-id signOutEverywhere --exclude-operation-id deleteAccount
# The admin API with an admin key from the command line (the user's bearer is refused there: 401, documented).
ADMIN_KEY=$(GATEHOUSE_DATA_DIR="$WORK/data" GATEHOUSE_LOG_LEVEL=warning "$BIN" admin-keys create --name fuzz | head -1)
st --config-file Tests/contract/schemathesis.toml run "$BASE/openapi.yaml" --url "$BASE" --checks all \
    --max-examples "${MAX_EXAMPLES:-25}" --workers 1 --seed "${SEED:-20261126}" --header "Authorization: Bearer $ADMIN_KEY" \
    --wait-for-schema 10 --include-tag admin
fuzz --include-operation-id signOutEverywhere --include-operation-id deleteAccount
