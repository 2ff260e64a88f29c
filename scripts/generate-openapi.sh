#!/usr/bin/env bash
# Regenerates what the server derives from its contract, Sources/GatehouseServer/Resources/openapi.yaml:
#   Sources/GatehouseAPI/Generated/*.swift                          swift-openapi-generator's types (config beside it)
#   Sources/GatehouseServer/Contract/Generated/RequestSchemas.swift   the request members' constraints (generate-request-schemas.py)
#   Sources/GatehouseServer/Contract/Generated/ResponseSchemas.swift  the response schemas' nulls and times (generate-request-schemas.py --responses)
# Both are committed, so an ordinary build never builds the generator.
#   scripts/generate-openapi.sh           rewrites them
#   scripts/generate-openapi.sh --check   fails, with the difference, if regenerating would change them (CI runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
DOCUMENT=Sources/GatehouseServer/Resources/openapi.yaml
TYPES=Sources/GatehouseAPI/Generated
SCHEMAS=Sources/GatehouseServer/Contract/Generated/RequestSchemas.swift
RESPONSES=Sources/GatehouseServer/Contract/Generated/ResponseSchemas.swift
TOOL=scripts/openapi-generator

# OPENAPI_GENERATOR names an already built generator (1.14.3); otherwise it is built here (about a minute, cold).
GENERATOR=${OPENAPI_GENERATOR:-}
if [ -z "$GENERATOR" ]; then
    swift build --package-path "$TOOL" --product swift-openapi-generator 2>&1 | tail -n 1
    GENERATOR="$(swift build --package-path "$TOOL" --show-bin-path)/swift-openapi-generator"
fi

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
mkdir -p "$OUT/types"
# The generator reads the document without its `not` keywords, which it cannot type (see generate-request-schemas.py).
python3 scripts/generate-request-schemas.py --generator-input "$DOCUMENT" > "$OUT/openapi.yaml"
"$GENERATOR" generate --config Sources/GatehouseAPI/openapi-generator-config.yaml --output-directory "$OUT/types" "$OUT/openapi.yaml" \
    >/dev/null 2>"$OUT/generator.log" || { cat "$OUT/generator.log"; exit 1; }
python3 scripts/generate-request-schemas.py "$DOCUMENT" > "$OUT/RequestSchemas.swift"
python3 scripts/generate-request-schemas.py --responses "$DOCUMENT" > "$OUT/ResponseSchemas.swift"

if [ "${1:-}" = "--check" ]; then
    status=0
    diff -ru "$TYPES" "$OUT/types" || status=1
    diff -u "$SCHEMAS" "$OUT/RequestSchemas.swift" || status=1
    diff -u "$RESPONSES" "$OUT/ResponseSchemas.swift" || status=1
    if [ "$status" -ne 0 ]; then
        echo "The generated contract code is stale: run scripts/generate-openapi.sh and commit what it changes."
        exit 1
    fi
    echo "The generated contract code matches $DOCUMENT."
else
    rm -rf "$TYPES"
    mkdir -p "$TYPES" "$(dirname "$SCHEMAS")"
    cp "$OUT"/types/*.swift "$TYPES/"
    cp "$OUT/RequestSchemas.swift" "$SCHEMAS"
    cp "$OUT/ResponseSchemas.swift" "$RESPONSES"
    echo "Wrote $TYPES/, $SCHEMAS and $RESPONSES."
fi
