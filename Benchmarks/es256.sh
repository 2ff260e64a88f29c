#!/usr/bin/env bash
# The OAuth code exchange signed RS256 beside ES256 (GATEHOUSE_TOKEN_ALG), each against its own floor
# of two signatures measured in the same run: Benchmarks/hosted_ui.sh once per algorithm.
#
#   Benchmarks/es256.sh                 # 20 password sign-ins and 300 exchanges per algorithm
set -euo pipefail
cd "$(dirname "$0")/.."
for alg in RS256 ES256; do
    echo "== GATEHOUSE_TOKEN_ALG=$alg"
    TOKEN_ALG=$alg Benchmarks/hosted_ui.sh
done
