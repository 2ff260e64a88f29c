#!/usr/bin/env bash
# Does a slow or dead mail server reach the requests that mail? (issue 13, point 3)
#
# Runs the same sign-up, forgot-password and resend timings (Benchmarks/enumeration_timing.py) three
# times against a release build: mail to the outbox (the baseline), to an SMTP server that answers each
# message after 2 seconds, and to one that never answers. Prints each run's medians; compare them with
# the outbox run of the same invocation (absolute numbers on shared machines are noise).
#
#   Benchmarks/mail.sh                # 40 pairs per run
#   PAIRS=100 Benchmarks/mail.sh
#
# Needs: curl, python3 with aiosmtpd and cryptography (pip install aiosmtpd cryptography).
set -euo pipefail
PAIRS=${PAIRS:-40}
PORT=${PORT:-18575}
BIN=${BIN:-.build/release/gatehouse}
BASE="http://127.0.0.1:$PORT"
[ -x "$BIN" ] || swift build -c release --product gatehouse
python3 -c "import aiosmtpd" 2>/dev/null || { echo "missing: python3 module aiosmtpd (pip install aiosmtpd)"; exit 1; }

WORK=$(mktemp -d /tmp/gatehouse-mailbench.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

run() { # label, GATEHOUSE_MAIL value (or "outbox"), smtp_server.py options (or "")
    local label=$1 mail=$2 smtp_options=$3
    local data="$WORK/data-$label"
    if [ -n "$smtp_options" ]; then
        coproc SMTP { exec python3 Tests/smtp/smtp_server.py $smtp_options; }
        pids+=($SMTP_PID)
        local info smtp_port smtp_dir
        read -r info <&"${SMTP[0]}"
        smtp_port=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["port"])' "$info")
        smtp_dir=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["dir"])' "$info")
        mail="smtp://127.0.0.1:$smtp_port?tls=none&timeout=30"
    fi
    GATEHOUSE_DATA_DIR="$data" GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=error GATEHOUSE_MAIL="$mail" \
        GATEHOUSE_ISSUER="$BASE" GATEHOUSE_TRUSTED_PROXIES=127.0.0.1 GATEHOUSE_MAIL_COOLDOWN=1 "$BIN" serve >"$WORK/$label.log" 2>&1 &
    local server=$!
    pids+=($server)
    for _ in $(seq 1 400); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.01; done
    echo "== $label"
    python3 Benchmarks/enumeration_timing.py "$BASE" "$PAIRS" forgot --signups
    python3 Benchmarks/enumeration_timing.py "$BASE" "$PAIRS" resend
    if [ -n "$smtp_options" ]; then
        # What the mail server saw meanwhile (so a run that never reached it cannot pass for a fast one);
        # then it goes first, so the server's shutdown does not wait out connections it never answers.
        echo "mail server: $(find "$smtp_dir" -name '*.eml' | wc -l) messages accepted," \
            "$(grep -c '^hang' "$smtp_dir/events.log" 2>/dev/null || true) left unanswered," \
            "$(grep -c '^connect' "$smtp_dir/events.log" 2>/dev/null || true) connections"
        kill "$SMTP_PID" 2>/dev/null || true; wait "$SMTP_PID" 2>/dev/null || true
    fi
    kill "$server"; wait "$server" 2>/dev/null || true
}

run outbox outbox ""
run smtp-2s-per-message "" "--tls none --delay 2"
run smtp-never-answers "" "--tls none --hang"
