#!/usr/bin/env bash
# Publishes the Swift SDK (Clients/GatehouseClient) as the root of its own repository, so an app adds it
# by URL and resolves nothing else (SwiftPM reads only a repository's root Package.swift), and tags it.
#
#   scripts/publish-sdk.sh <sdk-repository-url> <version> [<commit>]
#   scripts/publish-sdk.sh git@github.com:example/gatehouse-swift.git 0.9.0
#
# The SDK repository's history is `git subtree split --prefix Clients/GatehouseClient`: the same commits,
# rewritten, so publishing again only appends. <version> is the SDK's semantic version (its own, not the
# server's); the SDK repository gets the tag `<version>` and this repository should get `sdk-<version>` on
# <commit> (printed at the end). See Clients/GatehouseClient/README.md, "Versions".
set -euo pipefail

remote=${1:?usage: scripts/publish-sdk.sh <sdk-repository-url> <version> [<commit>]}
version=${2:?usage: scripts/publish-sdk.sh <sdk-repository-url> <version> [<commit>]}
commit=${3:-HEAD}
prefix=Clients/GatehouseClient

[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || { echo "not a semantic version: $version" >&2; exit 1; }
cd "$(git rev-parse --show-toplevel)"
git cat-file -e "$commit:$prefix/Package.swift" || { echo "$commit has no $prefix/Package.swift" >&2; exit 1; }
if git ls-remote --exit-code --tags "$remote" "refs/tags/$version" >/dev/null 2>&1; then
    echo "$remote already has the tag $version; versions are never moved" >&2
    exit 1
fi

split=$(git subtree split --prefix="$prefix" "$commit" 2>/dev/null)
git push "$remote" "$split:refs/heads/main"
git push "$remote" "$split:refs/tags/$version"
echo "published $prefix at $(git rev-parse --short "$commit") as $version ($split) to $remote"
echo "tag this repository too: git tag -a sdk-$version -m \"Swift SDK $version\" $(git rev-parse "$commit")"
