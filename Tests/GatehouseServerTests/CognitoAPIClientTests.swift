import Foundation
import GatehouseCore
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Cognito's user-pool API checked by clients no one here wrote: boto3's `cognito-idp` client,
/// pycognito's SRP and the AWS CLI (`Scripts/cognito_api_clients.py`), over a real socket, on each
/// store.
@Suite("Cognito API: boto3, pycognito and the AWS CLI", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct CognitoAPIClientTests {
    static let poolID = "us-east-1_GhTest42"

    static func app(_ database: TestDatabase) async throws -> TestApp {
        try await TestApp.make(database: database, realTime: true, mail: .configured) { c in
            c.cognitoAPI = true
            c.poolID = Self.poolID
            // The script signs in (rightly and wrongly) from one address far more than a person would;
            // the per-client limits would end the run, and the per-account ones are what it checks.
            let generous = RateLimitRule(name: "client", freeAttempts: 10_000, window: 3600, baseBlock: 1, maxBlock: 1)
            c.pool.rateLimits.signInPerClient = generous
            c.pool.rateLimits.codePerClient = generous
            c.pool.rateLimits.mailPerClient = generous
            c.pool.rateLimits.refreshPerClient = generous
            // The journey mails one address several times within a minute (sign-up, resend, reset).
            c.pool.rateLimits.mailPerAddress = generous
            c.pool.rateLimits.mailPerAddressHourly = generous
            // A block long enough to still hold when the script probes both APIs after reaching it.
            c.pool.rateLimits.signInPerAccount = RateLimitRule(name: "signin.account", freeAttempts: 5, window: 3600, baseBlock: 60, maxBlock: 900)
        }
    }

    @Test(arguments: TestDatabase.available)
    func realAWSClientsWorkAgainstTheEmbeddedPool(_ database: TestDatabase) async throws {
        let app = try await Self.app(database)
        let outbox = app.directory.appendingPathComponent("outbox").path
        try await app.live { client in
            let port = try #require(client.port)
            guard
                let result = try await PythonScript.run(
                    "cognito_api_clients.py",
                    arguments: [
                        "--endpoint", "http://127.0.0.1:\(port)", "--client-id", "test-client", "--pool-id", Self.poolID, "--outbox", outbox,
                    ],
                    requiring: "pycognito"
                )
            else { return }
            #expect(result.status == 0 && result.output.contains("ALL OK"), "\(result.output)")
        }
    }
}
