#!/usr/bin/env bash
# "The flows against their floors" (BENCHMARKS.md): SRP sign-in, a passkey assertion, a TOTP
# verification and the OAuth code exchange (RS256 and ES256), each as server CPU per request and as a
# multiple of its own cryptographic floor measured in the same run (Benchmarks/crypto_floors.py).
# Runs srp.sh, passkeys.sh, totp.sh and es256.sh one after the other and gathers their FLOOR_ROW lines.
#
#   Benchmarks/floors.sh
#   LOCK=/tmp/gatehouse-build.lock Benchmarks/floors.sh    # on a shared machine: each script holds the
#                                                          # build lock while it runs, so no build runs beside it
set -euo pipefail
cd "$(dirname "$0")/.."
LOG=$(mktemp /tmp/gatehouse-floors.XXXXXX)
trap 'rm -f "$LOG"' EXIT
for script in srp.sh passkeys.sh totp.sh es256.sh; do
    echo "== Benchmarks/$script"
    ${LOCK:+flock "$LOCK"} "Benchmarks/$script" | tee -a "$LOG"
done
echo
echo "| flow | server CPU µs | floor µs | multiple | floor |"
echo "|---|---:|---:|---:|---|"
grep '^FLOOR_ROW|' "$LOG" | awk -F'|' '{ printf "| %s | %s | %s | %sx | %s |\n", $2, $3, $4, $5, $6 }'
