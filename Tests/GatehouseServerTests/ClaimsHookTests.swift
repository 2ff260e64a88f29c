import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// The custom-claims hook (issue 30, part 2) against a real receiver on loopback.
@Suite("Claims hook", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct ClaimsHookTests {
    static func app(
        _ receiver: ClaimsHookReceiver,
        failure: ClaimsHookSettings.Failure = .deny,
        timeout: Duration = .milliseconds(1500),
        cacheTTL: TimeInterval = 0,
        clock: TestClock = TestClock(Date())
    ) async throws -> TestApp {
        try await TestApp.make(clock: clock) { c in c.claimsHook = hook(receiver, failure: failure, timeout: timeout, cacheTTL: cacheTTL) }
    }

    static func hook(
        _ receiver: ClaimsHookReceiver,
        failure: ClaimsHookSettings.Failure = .deny,
        timeout: Duration = .milliseconds(1500),
        cacheTTL: TimeInterval = 0
    ) -> ClaimsHookConfiguration {
        ClaimsHookConfiguration(
            url: receiver.url,
            secret: Array(Data(base64Encoded: String(ClaimsHookReceiver.secret.dropFirst(6)))!),
            settings: ClaimsHookSettings(timeout: timeout, failure: failure, cacheTTL: cacheTTL)
        )
    }

    static func claims(_ token: String) throws -> [String: JSONValue] { try CompactJWS(parsing: token).claims }

    static func signIn(_ client: any TestClientProtocol) async throws -> Reply {
        try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"])
    }

    @Test func signedRequestAddsClaimsAndNeverOverridesReservedOnes() async throws {
        try await ClaimsHookReceiver.run { receiver in
            receiver.answer(
                .json([
                    "claims": [
                        "role": "admin", "tenant": ["id": "t-1", "plan": "pro"], "groups": ["a", "b"], "sub": "someone-else", "exp": 9_999_999_999,
                        "token_use": "id", "origin_jti": "forged", "cognito:groups": ["root"], "Cognito:Roles": "x", "scope": "admin",
                    ],
                    "id_token_claims": ["locale": "fr", "email": "evil@example.com", "aud": "other-client", "nonce": "n"],
                ])
            )
            let app = try await Self.app(receiver)
            try await app.router { client in
                let reply = try await client.signedIn(app)
                #expect(reply.status == .ok, "\(reply.bodyText)")
                let access = try Self.claims(reply.string("access_token"))
                let id = try Self.claims(reply.string("id_token"))
                #expect(access["role"] == "admin" && access["groups"] == ["a", "b"])
                #expect(access["tenant"] == ["id": "t-1", "plan": "pro"])
                #expect(access["sub"] == id["sub"] && access["sub"] != "someone-else")
                #expect(access["token_use"] == "access" && access["origin_jti"] != "forged" && access["scope"] != "admin")
                #expect(access["exp"]?.int64Value != 9_999_999_999)
                #expect(access["cognito:groups"] == nil && access["Cognito:Roles"] == nil)
                #expect(access["locale"] == nil, "ID-token claims stay in the ID token")
                #expect(id["locale"] == "fr" && id["role"] == nil)
                #expect(id["email"] == "alice@example.com" && id["aud"] == "test-client" && id["nonce"] == nil)
                // The token's payload has each name once (no duplicate member a verifier could read either way).
                let payload = try #require(reply.string("access_token").split(separator: ".").dropFirst().first)
                let text = String(decoding: try #require(Base64URL.decode(String(payload))), as: UTF8.self)
                #expect(text.components(separatedBy: "\"sub\":").count == 2)

                let request = try #require(receiver.requests.last)
                #expect(request.signatureValid, "Standard Webhooks signature")
                #expect(request.id.hasPrefix("msg_") && abs(request.timestamp - app.clock.now().epochSeconds) <= 1)
                let body = try #require(request.body?.objectValue)
                #expect(body["token_use"] == "sign_in" && body["client_id"] == "test-client" && body["method"] == "password")
                #expect(body["user"]?.objectValue?["email"] == "alice@example.com" && body["user"]?.objectValue?["email_verified"] == true)
                #expect(body["user"]?.objectValue?["sub"] == access["sub"] && body["user"]?.objectValue?["phone_number"] == .null)
                #expect(Set(receiver.requests.map(\.id)).count == receiver.requests.count, "a fresh webhook-id per request")
            }
        }
    }

    @Test func refreshAsksTheHookUnlessItsAnswerIsCached() async throws {
        try await ClaimsHookReceiver.run { receiver in
            receiver.answer(.json(["claims": ["role": "reader"]]))
            let clock = TestClock(Date())
            let app = try await Self.app(receiver, cacheTTL: 30, clock: clock)
            try await app.router { client in
                var refreshToken = try await client.signedIn(app).string("refresh_token")
                let afterSignIn = receiver.requests.count
                receiver.answer(.json(["claims": ["role": "writer"]]))
                var reply = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(refreshToken)])
                #expect(reply.status == .ok)
                #expect(receiver.requests.count == afterSignIn, "cached for 30 s")
                #expect(try Self.claims(reply.string("access_token"))["role"] == "reader")
                clock.advance(by: 31)
                refreshToken = reply.string("refresh_token")
                reply = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(refreshToken)])
                #expect(reply.status == .ok && receiver.requests.count == afterSignIn + 1)
                #expect(try Self.claims(reply.string("access_token"))["role"] == "writer")
                #expect(receiver.requests.last?.body?.objectValue?["token_use"] == "refresh")
            }
        }
    }

    @Test func withoutACacheEveryRefreshAsks() async throws {
        try await ClaimsHookReceiver.run { receiver in
            receiver.answer(.json(["claims": ["n": 1]]))
            let app = try await Self.app(receiver)
            try await app.router { client in
                let refreshToken = try await client.signedIn(app).string("refresh_token")
                let before = receiver.requests.count
                let reply = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(refreshToken)])
                #expect(reply.status == .ok && receiver.requests.count == before + 1)
            }
        }
    }

    static let failures: [(ClaimsHookReceiver.Answer, String)] = [
        (.raw(500, "oops"), "HTTP 500"),
        (.raw(302, ""), "a redirect"),
        (.raw(200, "not json"), "garbage"),
        (.raw(200, #"{"claims": "admin"}"#), "claims not an object"),
        (.raw(200, #"{"claims": {}, "id_token_claims": [1]}"#), "id_token_claims not an object"),
        (.raw(200, #"{"claims": {"a": 1, "a": 2}}"#), "a duplicate member"),
        (.raw(200, #"["claims"]"#), "not an object"),
        (.json(["claims": ["big": .string(String(repeating: "x", count: 5000))]]), "claims over 4 KiB"),
        (.hang(.seconds(3)), "a timeout"),
    ]

    @Test func denyRefusesWithA503AndWritesNothing() async throws {
        try await ClaimsHookReceiver.run { receiver in
            let app = try await Self.app(receiver, timeout: .milliseconds(1000))
            try await app.router { client in
                let first = try await client.signedIn(app)
                #expect(first.status == .ok)
                let sub = try Self.claims(first.string("id_token"))["sub"]?.stringValue ?? ""
                let signInsBefore = try await app.built.store.read { try await $0.auditEntries(AuditQuery(userID: sub, event: .signIn)) }.count
                for (answer, label) in Self.failures {
                    receiver.answer(answer)
                    let reply = try await Self.signIn(client)
                    #expect(reply.status == .serviceUnavailable, "\(label)")
                    #expect(reply.errorCode == "upstream_unavailable", "\(label)")
                    #expect(reply["access_token"] == nil && !reply.bodyText.contains("oops"), "\(label)")
                }
                let signIns = try await app.built.store.read { try await $0.auditEntries(AuditQuery(userID: sub, event: .signIn)) }.count
                #expect(signIns == signInsBefore, "no session was recorded for a denied sign-in")
                // A refresh the hook denies leaves the token as it was: it works once the hook answers.
                receiver.answer(.raw(503, ""))
                let denied = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(first.string("refresh_token"))])
                #expect(denied.status == .serviceUnavailable && denied.errorCode == "upstream_unavailable")
                receiver.answer(.json(["claims": ["back": true]]))
                let retried = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(first.string("refresh_token"))])
                #expect(retried.status == .ok)
                #expect(try Self.claims(retried.string("access_token"))["back"] == true)
            }
        }
    }

    @Test func allowIssuesTokensWithoutExtraClaims() async throws {
        try await ClaimsHookReceiver.run { receiver in
            let app = try await Self.app(receiver, failure: .allow, timeout: .milliseconds(1000))
            try await app.router { client in
                #expect(try await client.signedIn(app).status == .ok)
                for (answer, label) in Self.failures {
                    receiver.answer(answer)
                    let reply = try await Self.signIn(client)
                    #expect(reply.status == .ok, "\(label)")
                    let access = try Self.claims(reply.string("access_token"))
                    #expect(access["big"] == nil && access["late"] == nil && access["a"] == nil, "\(label)")
                }
            }
        }
    }

    @Test func aSocialSignInTheHookDeniesLeavesNoLiveSession() async throws {
        try await FakeIssuer.run { issuer in
            try await ClaimsHookReceiver.run { receiver in
                let (app, _) = try await TestApp.social(issuer: issuer) { c in c.claimsHook = Self.hook(receiver) }
                try await app.router { client in
                    let token = issuer.token(.google, audience: Clients.googleWeb, subject: "g-1", email: "g@example.com")
                    receiver.answer(.raw(500, ""))
                    let denied = try await SocialVerificationTests.google(client, token)
                    #expect(denied.status == .serviceUnavailable && denied.errorCode == "upstream_unavailable")
                    let ended = try await app.built.store.read { try await $0.auditEntries(AuditQuery(event: .sessionEnded)) }
                    #expect(ended.contains { $0.detail == "claims_hook_denied" }, "the session recorded before the hook was ended")
                    receiver.answer(.json(["claims": ["tier": "gold"]]))
                    let reply = try await SocialVerificationTests.google(client, token)
                    #expect(reply.status == .ok)
                    #expect(try Self.claims(reply.string("access_token"))["tier"] == "gold")
                    #expect(receiver.requests.last?.body?.objectValue?["method"] == "google")
                }
            }
        }
    }

    @Test func configurationIsCheckedAtStart() throws {
        let base = ["GATEHOUSE_CLAIMS_HOOK_URL": "https://hooks.example.com/claims", "GATEHOUSE_CLAIMS_HOOK_SECRET": ClaimsHookReceiver.secret]
        let parsed = try GatehouseConfiguration.fromEnvironment(
            base.merging([
                "GATEHOUSE_CLAIMS_HOOK_FAILURE": "allow", "GATEHOUSE_CLAIMS_HOOK_TIMEOUT_MS": "300", "GATEHOUSE_CLAIMS_HOOK_CACHE_TTL": "20",
            ]) {
                $1
            }
        )
        #expect(parsed.claimsHook?.settings == ClaimsHookSettings(timeout: .milliseconds(300), failure: .allow, cacheTTL: 20))
        #expect(try GatehouseConfiguration.fromEnvironment(base).claimsHook?.settings == ClaimsHookSettings())
        #expect(try GatehouseConfiguration.fromEnvironment([:]).claimsHook == nil)
        let refused: [[String: String]] = [
            ["GATEHOUSE_CLAIMS_HOOK_SECRET": ClaimsHookReceiver.secret],
            ["GATEHOUSE_CLAIMS_HOOK_URL": "http://hooks.example.com/claims", "GATEHOUSE_CLAIMS_HOOK_SECRET": ClaimsHookReceiver.secret],
            ["GATEHOUSE_CLAIMS_HOOK_URL": "https://hooks.example.com/claims"],
            base.merging(["GATEHOUSE_CLAIMS_HOOK_SECRET": "plain-secret"]) { $1 },
            base.merging(["GATEHOUSE_CLAIMS_HOOK_SECRET": "whsec_c2hvcnQ="]) { $1 },
            base.merging(["GATEHOUSE_CLAIMS_HOOK_FAILURE": "maybe"]) { $1 },
            base.merging(["GATEHOUSE_CLAIMS_HOOK_TIMEOUT_MS": "0"]) { $1 },
        ]
        for env in refused {
            #expect(throws: ConfigurationError.self, "\(env)") { try GatehouseConfiguration.fromEnvironment(env) }
        }
        let loopback = ["GATEHOUSE_CLAIMS_HOOK_URL": "http://127.0.0.1:9/claims", "GATEHOUSE_CLAIMS_HOOK_SECRET": ClaimsHookReceiver.secret]
        #expect(try GatehouseConfiguration.fromEnvironment(loopback).claimsHook != nil)
    }
}
