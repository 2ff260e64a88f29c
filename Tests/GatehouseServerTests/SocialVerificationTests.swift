import Crypto
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Every verification rule for Google and Apple ID tokens, each with a test that fails without it.
@Suite("Social: provider token verification", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SocialVerificationTests {
    static func google(_ client: any TestClientProtocol, _ token: String, nonce: String? = nil, fullName: String? = nil) async throws -> Reply {
        var body: [String: JSONValue] = ["id_token": .string(token)]
        if let nonce { body["nonce"] = .string(nonce) }
        if let fullName { body["full_name"] = .string(fullName) }
        return try await client.send(.post, "/auth/google", json: .object(body))
    }

    static func apple(
        _ client: any TestClientProtocol,
        _ token: String,
        nonce: String? = nil,
        code: String? = nil,
        fullName: String? = nil
    ) async throws -> Reply {
        var body: [String: JSONValue] = ["identity_token": .string(token)]
        if let nonce { body["nonce"] = .string(nonce) }
        if let code { body["authorization_code"] = .string(code) }
        if let fullName { body["full_name"] = .string(fullName) }
        return try await client.send(.post, "/auth/apple", json: .object(body))
    }

    static func refused(_ reply: Reply, _ comment: Comment) {
        #expect(reply.status == .unauthorized, comment)
        #expect(reply.errorCode == "invalid_token", comment)
    }

    @Test func aValidGoogleTokenSignsInAndCreatesTheUserOnce() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let token = issuer.token(.google, audience: Clients.googleIOS, subject: "g-100", email: "gina@gmail.com", name: "Gina G")
                let first = try await Self.google(client, token)
                #expect(first.status == .ok && first["is_new_user"] == .bool(true) && first["token_type"] == "Bearer")
                let second = try await Self.google(client, token)
                #expect(second["is_new_user"] == .bool(false))
                let me = try await client.send(.get, "/me", bearer: second.string("access_token"))
                #expect(me.string("email") == "gina@gmail.com" && me["email_verified"] == .bool(true) && me.string("full_name") == "Gina G")
                #expect(
                    me["identities"]?.objectValue == nil
                        && me.object["identities"] == .array([["provider": "google", "linked_at": me["created_at"]!]])
                )
                let ours = try CompactJWS(parsing: second.string("id_token")).claims
                #expect(ours["sub"] != "g-100", "our sub, not Google's")
            }
        }
    }

    @Test func audienceIssuerAndAzpRules() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let base = issuer.standardClaims(.google, audience: Clients.googleWeb, subject: "g-1", email: "a@gmail.com")
                #expect(try await Self.google(client, issuer.token(.google, claims: base)).status == .ok)
                Self.refused(
                    try await Self.google(client, issuer.token(.google, claims: base, changing: ["aud": "someone-else", "azp": nil])),
                    "wrong audience"
                )
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, changing: ["aud": nil])), "missing audience")
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, changing: ["azp": "someone-else"])), "azp not ours")
                Self.refused(
                    try await Self.google(
                        client,
                        issuer.token(.google, claims: base, changing: ["aud": ["someone-else", .string(Clients.googleWeb)], "azp": nil])
                    ),
                    "several audiences, no azp"
                )
                #expect(
                    try await Self.google(
                        client,
                        issuer.token(.google, claims: base, changing: ["aud": ["someone-else", .string(Clients.googleWeb)]])
                    ).status == .ok
                )
                #expect(
                    try await Self.google(client, issuer.token(.google, claims: base, changing: ["iss": "accounts.google.com"])).status == .ok,
                    "the bare spelling"
                )
                #expect(
                    try await Self.google(client, issuer.token(.google, claims: base, changing: ["iss": "https://accounts.google.com"])).status == .ok
                )
                for iss: JSONValue in [
                    "https://accounts.google.com/", "http://accounts.google.com", "https://appleid.apple.com", "https://evil.example.com", 7,
                ] {
                    Self.refused(try await Self.google(client, issuer.token(.google, claims: base, changing: ["iss": iss])), "issuer \(iss)")
                }
                // An Apple token at the Google endpoint, and the reverse.
                Self.refused(
                    try await Self.google(client, issuer.token(.apple, audience: Clients.googleWeb, subject: "a-1", email: nil)),
                    "Apple token as Google"
                )
                Self.refused(
                    try await Self.apple(client, issuer.token(.google, audience: Clients.appleBundle, subject: "g-1", email: nil)),
                    "Google token as Apple"
                )
                Self.refused(
                    try await Self.apple(client, issuer.token(.apple, audience: Clients.googleWeb, subject: "a-1", email: nil)),
                    "Apple token for Google's audience"
                )
            }
        }
    }

    @Test func timeClaims() async throws {
        let clock = TestClock(Date())
        try await FakeIssuer.run(clock: clock) { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, clock: clock)
            try await app.router { client in
                let base = issuer.standardClaims(.google, audience: Clients.googleWeb, subject: "g-2", email: nil)
                let now = clock.now().epochSeconds
                Self.refused(
                    try await Self.google(client, issuer.token(.google, claims: base, changing: ["exp": .number(Double(now - 61))])),
                    "expired"
                )
                #expect(
                    try await Self.google(client, issuer.token(.google, claims: base, changing: ["exp": .number(Double(now - 30))])).status == .ok,
                    "within leeway"
                )
                Self.refused(
                    try await Self.google(client, issuer.token(.google, claims: base, changing: ["nbf": .number(Double(now + 120))])),
                    "nbf in the future"
                )
                Self.refused(
                    try await Self.google(client, issuer.token(.google, claims: base, changing: ["iat": .number(Double(now + 120))])),
                    "iat in the future"
                )
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, changing: ["exp": nil])), "no exp")
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, changing: ["exp": "soon"])), "exp a string")
            }
        }
    }

    @Test func keyAndAlgorithmRules() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let base = issuer.standardClaims(.google, audience: Clients.googleWeb, subject: "g-3", email: nil)
                #expect(try await Self.google(client, issuer.token(.google, claims: base)).status == .ok)
                let fetchesBefore = issuer.recorded.jwksFetches["google"] ?? 0
                // A kid the set does not have: one refetch, then refused; a second one within the minute: no refetch.
                let stranger = try SigningKey.generate(use: .idToken, kid: "unknown-kid", now: Date())
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, signedWith: stranger)), "unknown kid")
                #expect(issuer.recorded.jwksFetches["google"] == fetchesBefore + 1, "exactly one refetch")
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, signedWith: stranger)), "unknown kid again")
                #expect(issuer.recorded.jwksFetches["google"] == fetchesBefore + 1, "rate-limited")
                // Apple's key (its kid is real, but in the other provider's set).
                Self.refused(
                    try await Self.google(client, issuer.token(.google, claims: base, signedWith: issuer.signingKey(.apple))),
                    "key from Apple's set"
                )
                // The right kid but a different key behind it.
                let impostor = try SigningKey.generate(use: .idToken, kid: issuer.signingKey(.google).kid, now: Date())
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, signedWith: impostor)), "forged signature")
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, header: ["alg": "none"])), "alg none")
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, header: ["alg": "RS512"])), "RS512")
                let hs = CompactJWS.encode(header: ["alg": "HS256", "kid": .string(issuer.signingKey(.google).kid)], claims: .object(base)) { input in
                    Array(
                        HMAC<SHA256>.authenticationCode(
                            for: input,
                            using: SymmetricKey(data: Data(issuer.signingKey(.google).rsaPublicKey!.pemRepresentation.utf8))
                        )
                    )
                }
                Self.refused(try await Self.google(client, hs), "HS256 with the public key")
                for name in ["crit", "jku", "jwk", "x5u", "x5c"] {
                    let value: JSONValue =
                        name == "crit" ? ["exp"] : name == "jwk" ? ["kty": "RSA"] : name == "x5c" ? ["MIIB"] : "https://evil.example/keys"
                    Self.refused(try await Self.google(client, issuer.token(.google, claims: base, header: [name: value])), "\(name) header")
                }
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, header: ["kid": nil])), "no kid")
            }
        }
    }

    @Test func aRotatedProviderKeyIsPickedUp() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                #expect(try await Self.google(client, issuer.token(.google, audience: Clients.googleWeb, subject: "g-4", email: nil)).status == .ok)
                try issuer.rotateKey(.google, kid: "google-key-2")
                #expect(try await Self.google(client, issuer.token(.google, audience: Clients.googleWeb, subject: "g-4", email: nil)).status == .ok)
            }
        }
    }

    @Test func nonceRules() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let raw = "raw-nonce-\(UUID().uuidString)"
                let withNonce = issuer.token(.apple, audience: Clients.appleBundle, subject: "a-2", email: nil, nonce: raw)
                #expect(try await Self.apple(client, withNonce, nonce: raw).status == .ok)
                Self.refused(try await Self.apple(client, withNonce, nonce: "another"), "mismatch")
                Self.refused(try await Self.apple(client, withNonce, nonce: Digests.sha256Hex(raw)), "the hash sent instead of the raw value")
                Self.refused(try await Self.apple(client, withNonce), "nonce in the token only")
                let without = issuer.token(.apple, audience: Clients.appleBundle, subject: "a-2", email: nil)
                Self.refused(try await Self.apple(client, without, nonce: raw), "nonce in the request only")
                #expect(try await Self.apple(client, without).status == .ok, "neither side")
                let verbatim = issuer.token(
                    .apple,
                    claims: issuer.standardClaims(.apple, audience: Clients.appleBundle, subject: "a-2", email: nil),
                    changing: ["nonce": .string(raw)]
                )
                Self.refused(try await Self.apple(client, verbatim, nonce: raw), "raw nonce in the token")
            }
        }
    }

    @Test func requiredNoncesAreEnforced() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) { $0.requireNonce = true }
            try await app.router { client in
                Self.refused(
                    try await Self.google(client, issuer.token(.google, audience: Clients.googleWeb, subject: "g-5", email: nil)),
                    "no nonce"
                )
                #expect(
                    try await Self.google(
                        client,
                        issuer.token(.google, audience: Clients.googleWeb, subject: "g-5", email: nil, nonce: "n1"),
                        nonce: "n1"
                    ).status == .ok
                )
            }
        }
    }

    @Test func appleBooleanClaimsAreParsedStrictly() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let base = issuer.standardClaims(.apple, audience: Clients.appleBundle, subject: "a-3", email: "amy@icloud.com")
                let strings = try await Self.apple(client, issuer.token(.apple, claims: base))
                #expect(strings.status == .ok)
                #expect(
                    try await client.send(.get, "/me", bearer: strings.string("access_token"))["email_verified"] == .bool(true),
                    "\"true\" is true"
                )
                #expect(
                    try await Self.apple(
                        client,
                        issuer.token(.apple, claims: base, changing: ["email_verified": .bool(true), "is_private_email": .bool(false)])
                    ).status == .ok
                )
                for bad: JSONValue in ["yes", "TRUE", 1, ["true"]] {
                    Self.refused(
                        try await Self.apple(client, issuer.token(.apple, claims: base, changing: ["email_verified": bad])),
                        "email_verified \(bad)"
                    )
                }
                Self.refused(
                    try await Self.apple(client, issuer.token(.apple, claims: base, changing: ["is_private_email": "maybe"])),
                    "is_private_email"
                )
            }
        }
    }

    @Test func disabledProvidersSaySo() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) { c in
                c.googleClientIDs = []
                c.appleClientIDs = []
                c.appleServicesID = nil
            }
            try await app.router { client in
                let google = try await Self.google(client, issuer.token(.google, audience: Clients.googleWeb, subject: "g", email: nil))
                #expect(google.status == .forbidden && google.errorCode == "provider_disabled")
                let apple = try await Self.apple(client, issuer.token(.apple, audience: Clients.appleBundle, subject: "a", email: nil))
                #expect(apple.status == .forbidden && apple.errorCode == "provider_disabled")
                #expect(issuer.recorded.jwksFetches.isEmpty, "a disabled provider never fetches keys")
            }
        }
    }

    @Test func hostedDomainAllowList() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) { $0.googleHostedDomains = ["example.com"] }
            try await app.router { client in
                let base = issuer.standardClaims(.google, audience: Clients.googleWeb, subject: "g-6", email: "w@example.com")
                #expect(try await Self.google(client, issuer.token(.google, claims: base, changing: ["hd": "example.com"])).status == .ok)
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base, changing: ["hd": "evil.com"])), "other domain")
                Self.refused(try await Self.google(client, issuer.token(.google, claims: base)), "consumer account")
            }
        }
    }

    @Test func unreachableProviderKeys() async throws {
        let clock = TestClock(Date())
        try await FakeIssuer.run(clock: clock) { issuer in
            // The providers are down from the start: nothing is cached.
            issuer.update { $0.jwksDown = true }
            // Only requests fetch here: a background fetch begun while the providers were down could
            // still be in flight (and shared) when the script brings them back.
            let (app, _) = try await TestApp.social(issuer: issuer, clock: clock, backgroundKeyRefresh: false)
            try await app.router { client in
                let token = issuer.token(.apple, audience: Clients.appleBundle, subject: "a-7", email: nil)
                let down = try await Self.apple(client, token)
                #expect(down.status == .serviceUnavailable && down.errorCode == "upstream_unavailable", "503, never 500")
                let google = try await Self.google(client, issuer.token(.google, audience: Clients.googleWeb, subject: "g-7", email: nil))
                #expect(google.status == .serviceUnavailable && google.errorCode == "upstream_unavailable")
                // Apple comes back: keys are fetched and cached.
                issuer.update { $0.jwksDown = false }
                clock.advance(by: 6)
                #expect(try await Self.apple(client, token).status == .ok)
                // Down again: the cached keys keep working, fresh or stale.
                issuer.update { $0.jwksDown = true }
                #expect(try await Self.apple(client, token).status == .ok)
                clock.advance(by: 7200)
                let fresh = issuer.token(.apple, audience: Clients.appleBundle, subject: "a-7", email: nil)
                #expect(try await Self.apple(client, fresh).status == .ok, "the last good set keeps serving")
            }
        }
    }

    @Test func keysAreFetchedInTheBackgroundBeforeTheFirstSignIn() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                // No request has named a provider yet: the background service fetches both sets at start.
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline, issuer.recorded.jwksFetches["google"] == nil || issuer.recorded.jwksFetches["apple"] == nil {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(issuer.recorded.jwksFetches["google"] == 1 && issuer.recorded.jwksFetches["apple"] == 1)
                let token = issuer.token(.google, audience: Clients.googleWeb, subject: "g-bg", email: nil)
                #expect(try await Self.google(client, token).status == .ok)
                #expect(issuer.recorded.jwksFetches["google"] == 1, "the sign-in used the set fetched in the background")
            }
        }
    }

    @Test func forgedTokensAreThrottledPerClient() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) { c in
                c.pool.rateLimits.exchangePerClient = .init(name: "exchange.client", freeAttempts: 3, window: 3600, baseBlock: 60, maxBlock: 60)
            }
            try await app.router { client in
                var statuses: [Int] = []
                for _ in 0..<6 { statuses.append(try await Self.google(client, "not.a.token").status.code) }
                #expect(statuses == [401, 401, 401, 401, 429, 429], "past the limit, forged tokens get 429")
                let blocked = try await Self.google(
                    client,
                    issuer.token(.google, audience: Clients.googleWeb, subject: "g-9", email: nil, nonce: "n")
                )
                #expect(blocked.status == .tooManyRequests && blocked.headers[.retryAfter] != nil, "a token failing the nonce rule is refused too")
                // A genuine token cannot be forged, so it is not held up by the client's earlier failures.
                #expect(try await Self.google(client, issuer.token(.google, audience: Clients.googleWeb, subject: "g-8", email: nil)).status == .ok)
            }
        }
    }
}
