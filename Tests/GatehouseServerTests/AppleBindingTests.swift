import Crypto
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseStore
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// What Apple's answers are bound to: the web callback records a state only after Apple's identity
/// token verified for the Services ID (never a bundle id) and within a per-client cap; an
/// authorization code is exchanged only if it was issued with the identity token sent beside it
/// (`c_hash`), and its refresh token is kept only if Apple's answer names the signed-in user.
@Suite("Social: Apple codes and callbacks bound to the identity", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AppleBindingTests {
    typealias Flow = AppleWebFlowTests

    static func answer(_ issuer: FakeIssuer, _ query: [String: String], audience: String = Clients.appleServices, subject: String) -> [String: String]
    {
        let claims = issuer.standardClaims(.apple, audience: audience, subject: subject, email: nil)
        let idToken = issuer.token(.apple, claims: claims, changing: ["nonce": .string(query["nonce"] ?? "")])
        return ["state": query["state"] ?? "", "id_token": idToken]
    }

    @Test(arguments: TestDatabase.available)
    func aCallbackWithoutAValidServicesIDTokenWritesNothing(_ database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let store = app.built.store
                var refusals: [String?] = []
                for variant in ["missing", "forged", "bundle-audience"] {
                    let (_, query, cookie) = try await Flow.authorize(client, Flow.PKCE())
                    var fields = Self.answer(
                        issuer,
                        query,
                        audience: variant == "bundle-audience" ? Clients.appleBundle : Clients.appleServices,
                        subject: "a-x"
                    )
                    if variant == "missing" { fields["id_token"] = nil }
                    if variant == "forged" { fields["id_token"] = String(fields["id_token"]!.dropLast(6)) + "AAAAAA" }
                    refusals.append(Flow.value(Flow.target(try await Flow.callback(client, fields, cookie: cookie)), "error"))
                    // Refused without being spent: the same state with a good token still works.
                    let good = Self.answer(issuer, query, subject: "a-\(variant)")
                    #expect(Flow.value(Flow.target(try await Flow.callback(client, good, cookie: cookie)), "code") != nil, "\(variant)")
                }
                #expect(refusals == ["invalid_request", "invalid_token", "invalid_token"], "\(refusals)")
                #expect(try await store.authorizationStateRows() == 3, "one row per state that signed in, none for the refusals")
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func oneTokenReplayedWithFreshStatesIsCappedPerClient(_ database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database) {
                $0.pool.rateLimits.appleCallbackPerClient = RateLimitRule(name: "apple.callback.client", freeAttempts: 5, window: 3600)
            }
            try await app.router { client in
                let store = app.built.store
                // The attacker picks the nonce, so one identity token of theirs verifies against every state they start.
                var outcomes: [String] = []
                var token: String?
                for _ in 0..<12 {
                    let (_, query, cookie) = try await Flow.authorize(client, Flow.PKCE(), nonce: "fixed-nonce")
                    var fields = Self.answer(issuer, query, subject: "a-flood")
                    token = token ?? fields["id_token"]
                    fields["id_token"] = token
                    let target = Flow.target(try await Flow.callback(client, fields, cookie: cookie))
                    outcomes.append(Flow.value(target, "code") != nil ? "code" : Flow.value(target, "error") ?? "?")
                }
                #expect(outcomes == Array(repeating: "code", count: 5) + Array(repeating: "too_many_requests", count: 7), "\(outcomes)")
                #expect(try await store.authorizationStateRows() == 5)
            }
        }
    }

    @Test func someoneElsesCodeBesideYourTokenIsNeverKept() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let victimCode = issuer.appleCode(for: "a-victim")
                // A token without c_hash: the code is exchanged, Apple's answer names the victim, nothing is kept.
                let own = issuer.token(.apple, audience: Clients.appleBundle, subject: "a-attacker", email: nil)
                let signIn = try await SocialVerificationTests.apple(client, own, code: victimCode)
                #expect(signIn.status == .ok)
                #expect(issuer.recorded.tokenRequests.count == 1)
                let sub = try CompactJWS(parsing: signIn.string("id_token")).claims["sub"]?.stringValue ?? ""
                #expect(try await app.built.store.read { try await $0.appleTokens(userID: sub) }.isEmpty, "the victim's refresh token is not kept")
                // Deleting the attacker's account therefore revokes nothing of the victim's.
                #expect(try await client.send(.delete, "/me", bearer: signIn.string("access_token")).status == .noContent)
                #expect(issuer.recorded.revokeRequests.isEmpty)

                // A token with c_hash: a code that does not hash to it is refused before any exchange.
                let claims = issuer.standardClaims(.apple, audience: Clients.appleBundle, subject: "a-attacker-2", email: nil)
                let bound = issuer.token(.apple, claims: claims, changing: ["c_hash": .string(FakeIssuer.codeHash("their-own-code"))])
                let refused = try await SocialVerificationTests.apple(client, bound, code: issuer.appleCode(for: "a-victim"))
                #expect(refused.status == .unauthorized && refused.errorCode == "invalid_token")
                #expect(issuer.recorded.tokenRequests.count == 1, "no second exchange")
            }
        }
    }

    @Test func yourOwnCodeIsKeptWithOrWithoutCHash() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                for (subject, withHash) in [("a-own-1", false), ("a-own-2", true)] {
                    let code = issuer.appleCode(for: subject)
                    let claims = issuer.standardClaims(.apple, audience: Clients.appleBundle, subject: subject, email: nil)
                    let token = issuer.token(.apple, claims: claims, changing: withHash ? ["c_hash": .string(FakeIssuer.codeHash(code))] : [:])
                    let signIn = try await SocialVerificationTests.apple(client, token, code: code)
                    #expect(signIn.status == .ok)
                    let sub = try CompactJWS(parsing: signIn.string("id_token")).claims["sub"]?.stringValue ?? ""
                    #expect(try await app.built.store.read { try await $0.appleTokens(userID: sub) }.count == 1, "\(subject)")
                }
            }
        }
    }
}
