import Foundation
import GatehouseCore
import GatehouseStore
import Logging

extension Doctor {
    /// `GATEHOUSE_COGNITO_API`: whether SRP can run here, which pool id and client id the apps must be
    /// given, and whether Amplify Swift can reach the server (it only speaks `https://<host>:443/`).
    static func cognitoAPIFindings(_ c: GatehouseConfiguration, storeExists: Bool, logger: Logger) async -> [DoctorFinding] {
        guard c.cognitoAPI else { return [] }
        var findings: [DoctorFinding] = []
        if CognitoSRP.system == nil {
            findings.append(
                .problem(
                    "cognito-api.srp",
                    "The system's OpenSSL 3 (libcrypto.so.3) did not load: SRP sign-ins (Amplify's default) are refused.",
                    fix: "Install OpenSSL 3 (Debian: apt-get install libssl3) on the server; USER_PASSWORD_AUTH works meanwhile."
                )
            )
        } else {
            findings.append(.ok("cognito-api.srp", "SRP sign-in runs on the system's OpenSSL 3."))
        }
        // What the apps must be configured with: the configured values, or the ones the database keeps.
        var stored: (pool: String?, client: String?) = (nil, nil)
        if storeExists, c.poolID == nil || c.clientID == nil, let location = try? StoreLocation(url: c.resolvedDatabaseURL) {
            stored =
                (try? await location.withStore(logger: logger) { store in
                    try await store.read { tx in (try await tx.setting("pool_id"), try await tx.setting("client_id")) }
                }) ?? (nil, nil)
        }
        let pool = c.poolID ?? stored.pool
        let client = c.clientID ?? stored.client
        findings.append(
            .ok(
                "cognito-api.ids",
                "Cognito's API is served at POST /: the apps' PoolId is \(pool ?? "generated on the first start (run this again after it)")"
                    + ", AppClientId \(client ?? "generated on the first start") (docs/cognito-api.md)."
            )
        )
        if c.poolID == nil {
            findings.append(
                .warning(
                    "cognito-api.pool-id",
                    "GATEHOUSE_POOL_ID is unset: the pool id lives only in the database, and every SRP verifier depends on it.",
                    fix: "Set GATEHOUSE_POOL_ID to the value above, so a new database or a restore keeps the apps' configuration valid."
                )
            )
        }
        if let url = URL(string: c.resolvedIssuer), url.scheme != "https" || (url.port ?? 443) != 443 || !(url.path.isEmpty || url.path == "/") {
            findings.append(
                .warning(
                    "cognito-api.endpoint",
                    "The issuer \(c.resolvedIssuer) is not https on port 443 at the root: Amplify Swift only reaches https://<Endpoint>:443/.",
                    fix:
                        "Put TLS in front of Gatehouse on a host of its own and set GATEHOUSE_ISSUER to https://that-host (amplify-js and boto3 take any URL)."
                )
            )
        }
        return findings
    }
}
