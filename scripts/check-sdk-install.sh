#!/usr/bin/env bash
# Proves that an app adds the Swift SDK by URL and resolves nothing else: publishes Clients/GatehouseClient
# at HEAD (scripts/publish-sdk.sh) to a scratch bare repository, makes a scratch app that depends on it by
# a file:// URL, resolves and builds it, and checks that Package.resolved pins the SDK alone. Offline.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
# `git subtree split` writes commits: a bare CI machine may have no git identity.
export GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-gatehouse-ci} GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-ci@gatehouse.invalid}
export GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-gatehouse-ci} GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-ci@gatehouse.invalid}
work=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-sdk-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

git clone --quiet "$root" "$work/source"
git -C "$work/source" checkout --quiet "$(git -C "$root" rev-parse HEAD)"
git init --quiet --bare "$work/gatehouse-swift.git"
(cd "$work/source" && scripts/publish-sdk.sh "file://$work/gatehouse-swift.git" 0.0.1 >/dev/null)

mkdir -p "$work/app/Sources/App"
cat >"$work/app/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ScratchApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(url: "file://$work/gatehouse-swift.git", from: "0.0.1")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Gatehouse", package: "gatehouse-swift")])]
)
MANIFEST
cat >"$work/app/Sources/App/main.swift" <<'SOURCE'
import Foundation
import Gatehouse

let gatehouse = GatehouseClient(baseURL: URL(string: "https://auth.example.com")!)
func signIn() async throws {
    try await gatehouse.signIn(email: "ann@example.com", password: "correct horse 9")
    let me = try await gatehouse.profile()
    print(me.email ?? "", me.identities.map(\.provider))
}
let session: Gatehouse.Session? = gatehouse.currentSession
print("signed in:", session != nil)
SOURCE

cd "$work/app"
swift package resolve >/dev/null
pins=$(grep -c '"identity"' Package.resolved)
grep -q '"identity" : "gatehouse-swift"' Package.resolved && [ "$pins" -eq 1 ] \
    || { echo "the app resolved more than the SDK:"; cat Package.resolved; exit 1; }
swift build 2>&1 | tail -n 1
./.build/debug/App >/dev/null
echo "An app adds the SDK by URL and resolves only it (Package.resolved: 1 pin, gatehouse-swift)."
