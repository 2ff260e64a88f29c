import Foundation
import GatehouseCore
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing

@testable import GatehouseStore

/// The web flow's `state` (security review, issue 11, items 5 and 6): sealed, so starting a flow
/// writes nothing; bound to the starting browser by a `__Host-` cookie; accepted once.
@Suite("Social: Apple web state (sealed, browser-bound, single use)", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AppleWebStateTests {
    typealias Flow = AppleWebFlowTests

    static let cookieAttributes = "Path=/; Secure; HttpOnly; SameSite=None"

    /// What a browser that finishes the flow posts back: Apple's token carrying the hashed nonce.
    static func appleAnswer(_ issuer: FakeIssuer, _ query: [String: String], subject: String) -> [String: String] {
        let claims = issuer.standardClaims(.apple, audience: Clients.appleServices, subject: subject, email: nil)
        let idToken = issuer.token(.apple, claims: claims, changing: ["nonce": .string(query["nonce"] ?? "")])
        return ["state": query["state"] ?? "", "code": "apple-code-\(subject)", "id_token": idToken]
    }

    @Test(arguments: TestDatabase.available)
    func authorizeStoresNothingAndSetsTheBindingCookie(_ database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let store = app.built.store
                var cookies = Set<String>()
                for _ in 0..<200 {
                    let (reply, query, cookie) = try await Flow.authorize(client, Flow.PKCE())
                    #expect(reply.status == .found && query["state"] != nil)
                    if let cookie { cookies.insert(cookie) }
                }
                let rows = try await store.authorizationStateRows()
                #expect(rows == 0, "starting a flow writes nothing")
                #expect(cookies.count == 200, "a fresh binding secret per flow")

                let (reply, query, _) = try await Flow.authorize(client, Flow.PKCE(), nonce: String(repeating: "n", count: 256))
                let setCookie = try #require(reply.headers[values: .setCookie].first)
                #expect(setCookie.hasPrefix("__Host-gatehouse-apple=") && setCookie.hasSuffix("; Max-Age=600; \(Self.cookieAttributes)"))
                #expect(!setCookie.lowercased().contains("domain="))
                let state = try #require(query["state"])
                #expect(state.count == 479, "the largest state (a 256-character nonce) stays under 512 characters")
                let (_, generated, _) = try await Flow.authorize(client, Flow.PKCE(), nonce: nil)
                #expect(generated["state"]?.count == 181, "with the generated nonce")
                #expect(!state.contains(String(repeating: "n", count: 16)), "the nonce is sealed, not readable")
            }
        }
    }

    @Test func aStateOnlyWorksInTheBrowserThatStartedIt() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.live { client in
                // The attacker starts the flow with their own PKCE pair and sends the victim Apple's link.
                let attacker = Flow.PKCE()
                let (_, query, attackerCookie) = try await Flow.authorize(client, attacker)
                let answer = Self.appleAnswer(issuer, query, subject: "a-victim")
                let (_, _, victimCookie) = try await Flow.authorize(client, Flow.PKCE())
                for cookie in [nil, victimCookie, "__Host-gatehouse-apple=", "__Host-gatehouse-apple=\(String(repeating: "A", count: 43))"] {
                    let page = try await Flow.callback(client, answer, cookie: cookie)
                    #expect(Flow.value(Flow.target(page), "error") == "invalid_state", "cookie \(cookie ?? "none")")
                    #expect(Flow.value(Flow.target(page), "code") == nil, "no hand-off for the attacker to redeem")
                    #expect(page.headers[values: .setCookie] == ["__Host-gatehouse-apple=; Max-Age=0; \(Self.cookieAttributes)"])
                }
                #expect(issuer.recorded.tokenRequests.isEmpty, "Apple's code was never redeemed")
                // Refused states are not spent: the browser that started the flow still finishes it.
                let page = try await Flow.callback(client, answer, cookie: attackerCookie)
                #expect(page.headers[values: .setCookie] == ["__Host-gatehouse-apple=; Max-Age=0; \(Self.cookieAttributes)"], "the cookie is spent")
                let code = try #require(Flow.value(Flow.target(page), "code"))
                let tokens = try await client.send(
                    .post,
                    "/auth/handoff",
                    json: ["code": .string(code), "code_verifier": .string(attacker.verifier)]
                )
                #expect(tokens.status == .ok)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aStateIsAcceptedOnceEvenConcurrently(_ database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let (_, query, cookie) = try await Flow.authorize(client, Flow.PKCE())
                let answer = Self.appleAnswer(issuer, query, subject: "a-race")
                let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            let target = Flow.target(try await Flow.callback(client, answer, cookie: cookie))
                            return Flow.value(target, "code") != nil ? "code" : Flow.value(target, "error") ?? "?"
                        }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == "code" }.count == 1, "\(outcomes)")
                #expect(outcomes.filter { $0 == "invalid_state" }.count == 7, "\(outcomes)")
                #expect(issuer.recorded.tokenRequests.count == 1, "Apple's code was redeemed once")
                // And later, one after the other.
                let replay = try await Flow.callback(client, answer, cookie: cookie)
                #expect(Flow.value(Flow.target(replay), "error") == "invalid_state")
            }
        }
    }

    @Test func tamperedAndForeignStatesAreRefused() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            let (other, _) = try await TestApp.social(issuer: issuer)  // another master key
            let (_, foreign, foreignCookie) = try await other.router { client in try await Flow.authorize(client, Flow.PKCE()) }
            try await app.router { client in
                let (_, query, cookie) = try await Flow.authorize(client, Flow.PKCE())
                let state = try #require(query["state"])
                var chars = Array(state)
                let middle = chars.count / 2
                chars[middle] = chars[middle] == "A" ? "B" : "A"
                let variants = [
                    String(chars), String(state.dropLast(4)), state + "AAAA", "v1." + String(repeating: "A", count: 200), String(state.dropFirst(3)),
                ]
                for variant in variants {
                    var answer = Self.appleAnswer(issuer, query, subject: "a-tamper")
                    answer["state"] = variant
                    let page = try await Flow.callback(client, answer, cookie: cookie)
                    #expect(Flow.value(Flow.target(page), "error") == "invalid_state", "\(variant.prefix(12))…")
                }
                let page = try await Flow.callback(client, Self.appleAnswer(issuer, foreign, subject: "a-foreign"), cookie: foreignCookie)
                #expect(Flow.value(Flow.target(page), "error") == "invalid_state", "sealed under another server's key")
                // The untouched state still works.
                let good = try await Flow.callback(client, Self.appleAnswer(issuer, query, subject: "a-tamper"), cookie: cookie)
                #expect(Flow.value(Flow.target(good), "code") != nil)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func usedStatesLastUntilTheyExpire(_ database: TestDatabase) async throws {
        let clock = TestClock(Date())
        try await FakeIssuer.run(clock: clock) { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database, clock: clock)
            try await app.router { client in
                let store = app.built.store
                let (_, query, cookie) = try await Flow.authorize(client, Flow.PKCE())
                clock.advance(by: 599)
                let answer = Self.appleAnswer(issuer, query, subject: "a-late")
                #expect(Flow.value(Flow.target(try await Flow.callback(client, answer, cookie: cookie)), "code") != nil, "still valid at 599 s")
                #expect(try await store.authorizationStateRows() == 1)
                _ = try await store.purgeExpired(now: clock.now())
                #expect(try await store.authorizationStateRows() == 1, "kept while the state could still be replayed")
                clock.advance(by: 2)
                #expect(Flow.value(Flow.target(try await Flow.callback(client, answer, cookie: cookie)), "error") == "invalid_state")
                _ = try await store.purgeExpired(now: clock.now())
                #expect(try await store.authorizationStateRows() == 0, "purged once expired")
            }
        }
    }

    @Test func forwardModeChecksAStateWhenOneIsSent() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) { $0.appleCallbackMode = .forward }
            try await app.router { client in
                let (_, query, cookie) = try await Flow.authorize(client, Flow.PKCE())
                let answer = Self.appleAnswer(issuer, query, subject: "a-fwd-state")
                #expect(Flow.value(Flow.target(try await Flow.callback(client, answer)), "error") == "invalid_state", "no cookie")
                #expect(Flow.value(Flow.target(try await Flow.callback(client, answer, cookie: cookie)), "id_token") == answer["id_token"])
                #expect(Flow.value(Flow.target(try await Flow.callback(client, answer, cookie: cookie)), "error") == "invalid_state", "used")
            }
        }
    }
}

extension SQLStore {
    /// Rows in `gh_authorization_states` (used web-flow states).
    func authorizationStateRows() async throws -> Int {
        try await readSQL { db in
            try await db.raw("SELECT COUNT(*) AS n FROM gh_authorization_states").first()?.decode(column: "n", as: Int.self) ?? -1
        }
    }
}
