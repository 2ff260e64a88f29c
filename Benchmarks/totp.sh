#!/usr/bin/env bash
# Server CPU per TOTP verification (the second step of a sign-in, POST /auth/mfa/verify) against its
# cryptographic floor, from one release server on loopback.
#
#   Benchmarks/totp.sh                  # 200 accounts, one verification each
#   N_TOTP=30 Benchmarks/totp.sh
#
# A code is accepted once, so each verification is another account's (set up first, not measured;
# scrypt is lowered to 2^10 for that set-up: the measured step hashes no password; each account comes
# from its own X-Forwarded-For address, loopback being a trusted proxy, past the per-client mail cap).
# Needs: curl, python3 with requests and pyotp.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18578}
BIN=${BIN:-.build/release/gatehouse}
WORK=$(mktemp -d /tmp/gatehouse-totp.XXXXXX)
BASE="http://127.0.0.1:$PORT"
[ -x "$BIN" ] || swift build -c release --product gatehouse
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT

GATEHOUSE_DATA_DIR="$WORK/data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning GATEHOUSE_ISSUER="$BASE" \
GATEHOUSE_SCRYPT_LOG_N=10 GATEHOUSE_TRUSTED_PROXIES=127.0.0.1 "$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 400); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.01; done

python3 Benchmarks/totp_signin.py "$SERVER" "$BASE" "$WORK/data/outbox" "${N_TOTP:-200}"
