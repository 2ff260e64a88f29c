import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// The second factor with clients no one here wrote (`Scripts/mfa_clients.py`: pyotp, boto3, the
/// software authenticator), over a real socket, on each store; and the challenge's lifetime in process.
@Suite("Second factor: pyotp, boto3 and a passkey, each store", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SecondFactorClientTests {
    @Test(arguments: TestDatabase.available)
    func everyFirstFactorAsksForTheSecond(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database, realTime: true, mail: .configured) { c in
            c.cognitoAPI = true
            c.compatAPIV1 = true
            c.passkeys.rpID = "gatehouse.test"
            let generous = RateLimitRule(name: "client", freeAttempts: 10_000, window: 3600, baseBlock: 1, maxBlock: 1)
            c.pool.rateLimits.signInPerClient = generous
            c.pool.rateLimits.signInPerAccount = generous
            c.pool.rateLimits.mailPerAddress = generous
        }
        let outbox = app.directory.appendingPathComponent("outbox").path
        try await app.live { client in
            let port = try #require(client.port)
            guard
                let result = try await PythonScript.run(
                    "mfa_clients.py",
                    arguments: [
                        "--endpoint", "http://127.0.0.1:\(port)", "--client-id", "test-client", "--outbox", outbox, "--origin",
                        "http://gatehouse.test",
                    ],
                    requiring: "pyotp"
                )
            else { return }
            #expect(result.status == 0 && result.output.contains("ALL OK"), "\(result.output)")
        }
    }

    @Test func theChallengeLivesFiveMinutesAndTheHostedFormAsksForTheCode() async throws {
        let app = try await TestApp.make { c in
            c.hostedUI = true
            c.callbackURLs = [HostedUIRoutesTests.callback]
        }
        try await app.router { client in
            let bearer = try await client.signedIn(app).string("access_token")
            let secret = try await client.send(.post, "/me/mfa/totp", bearer: bearer).string("secret")
            let confirm = try await client.send(
                .post,
                "/me/mfa/totp/verify",
                json: ["code": .string(try ContractTests.totp(secret, app))],
                bearer: bearer
            )
            #expect(confirm.status == .ok)
            let refused = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"])
            let token = try #require(refused["error"]?.objectValue?["mfa_token"]?.stringValue)
            app.clock.advance(by: 301)
            let late = try await client.send(
                .post,
                "/auth/mfa/verify",
                json: ["mfa_token": .string(token), "code": .string(try ContractTests.totp(secret, app))]
            )
            #expect(late.status == .unauthorized && late.errorCode == "invalid_grant", "a challenge lives five minutes")

            // The hosted form: the password, then the code, then the app's code back.
            let page = try await client.send(.get, "/login?" + HostedUIRoutesTests.authorizeQuery())
            let form = try #require(HostedUIRoutesTests.cookie(page, "gatehouse-form"))
            let csrf = try #require(page.bodyText.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
            let fields = HostedUIRoutesTests.authorizeQuery() + "&csrf=\(csrf)"
            let asked = try await client.send(
                .post,
                "/login",
                raw: fields + "&email=alice@example.com&password=correct+horse+9",
                contentType: "application/x-www-form-urlencoded",
                headers: [.cookie: form]
            )
            #expect(asked.status == .ok && asked.bodyText.contains(#"id="form-mfa""#))
            let mfaToken = try #require(asked.bodyText.firstMatch(of: /name="mfa_token" value="([^"]+)"/)).1
            app.clock.advance(by: 30)
            let code = try ContractTests.totp(secret, app)
            let done = try await client.send(
                .post,
                "/mfa",
                raw: fields + "&mfa_token=\(mfaToken)&code=\(code)",
                contentType: "application/x-www-form-urlencoded",
                headers: [.cookie: form]
            )
            #expect(done.status == .found && HostedUIRoutesTests.query(done)["code"] != nil, "\(done.bodyText)")
        }
    }
}
