#!/usr/bin/env bash
# /health p99 idle, then while one address floods sign-in (each request a new account, wrong
# password, 32 connections): a focused check of what hashing under a flood does to /health.
#   BIN=.build/release/gatehouse EXTRA_ENV="GATEHOUSE_THROTTLE_DELAY_MS=0" Benchmarks/flood_probe.sh
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release/gatehouse}; EXTRA_ENV=${EXTRA_ENV:-}
PORT=${PORT:-18655}; BASE=http://127.0.0.1:$PORT; WORK=$(mktemp -d)
env $EXTRA_ENV GATEHOUSE_DATA_DIR=$WORK GATEHOUSE_HTTP_PORT=$PORT GATEHOUSE_LOG_LEVEL=warning GATEHOUSE_TRUSTED_PROXIES=127.0.0.1 $BIN serve >/dev/null 2>&1 &
S=$!
for _ in $(seq 1 200); do curl -sf $BASE/health >/dev/null && break; sleep 0.05; done
p99() { wrk -t1 -c4 -d"$1" --latency "$BASE/health" | awk '/ 99%/ {print $2}'; }
IDLE=$(p99 5s)
wrk -t1 -c32 -d12s -s Benchmarks/flood.lua $BASE/auth/signin > $WORK/flood.out 2>&1 &
F=$!
sleep 1
LOAD=$(p99 8s)
wait $F
RPS=$(grep Requests/sec $WORK/flood.out | awk '{print $2}')
echo "$(basename $BIN) ${EXTRA_ENV:-default}: idle p99 $IDLE, during flood p99 $LOAD, flood $RPS req/s"
kill $S; wait $S 2>/dev/null; rm -rf $WORK
