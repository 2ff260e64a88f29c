import Crypto
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Social: accounts, linking and Apple revocation", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SocialAccountTests {
    typealias V = SocialVerificationTests

    @Test func aVerifiedEmailLinksToAConfirmedAccount() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let password = try await client.signedIn(app, email: "alice@example.com")
                let sub = try CompactJWS(parsing: password.string("id_token")).claims["sub"]
                // A Workspace account (`hd`): Google is authoritative for the address.
                let google = try await V.google(
                    client,
                    SocialLinkingTests.google(issuer, subject: "g-alice", email: "Alice@Example.com", hd: "example.com")
                )
                #expect(google.status == .ok && google["is_new_user"] == .bool(false))
                #expect(try CompactJWS(parsing: google.string("id_token")).claims["sub"] == sub, "the same account")
                let me = try await client.send(.get, "/me", bearer: google.string("access_token"))
                #expect(me["identities"]?.stringValue == nil)
                let providers = (me.object["identities"]?.arrayValue ?? []).compactMap { $0.objectValue?["provider"]?.stringValue }
                #expect(providers.sorted() == ["google", "password"])
                // The password still works too.
                #expect(
                    try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"]).status == .ok
                )
            }
        }
    }

    @Test func anUnverifiedGoogleEmailIsNeverLinked() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let password = try await client.signedIn(app, email: "alice@example.com")
                let google = try await V.google(
                    client,
                    issuer.token(.google, audience: Clients.googleWeb, subject: "g-x", email: "alice@example.com", emailVerified: false)
                )
                #expect(google.status == .ok && google["is_new_user"] == .bool(true))
                let a = try CompactJWS(parsing: password.string("id_token")).claims["sub"]
                let b = try CompactJWS(parsing: google.string("id_token")).claims["sub"]
                #expect(a != b, "a separate account")
                let me = try await client.send(.get, "/me", bearer: google.string("access_token"))
                #expect(me["email_verified"] == .bool(false))
            }
        }
    }

    @Test func preHijackTheVerifiedOwnerWinsAndTheAttackersPasswordNeverWorks() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                // The attacker signs up with the victim's address, cannot confirm it, and waits.
                let attacker = try await client.send(
                    .post,
                    "/auth/signup",
                    json: ["email": "victim@example.com", "password": "attacker pass 1", "full_name": "Mallory"]
                )
                #expect(attacker.status == .created)
                let attackerCode = try #require(await app.mailer.latestCode(to: "victim@example.com", kind: "confirm_signup"))
                // The victim arrives with Google (a Workspace account: Google is authoritative for the address).
                let victim = try await V.google(
                    client,
                    issuer.token(
                        .google,
                        claims: issuer.standardClaims(
                            .google,
                            audience: Clients.googleWeb,
                            subject: "g-victim",
                            email: "victim@example.com",
                            name: "Victor"
                        ),
                        changing: ["hd": "example.com"]
                    )
                )
                #expect(victim.status == .ok && victim["is_new_user"] == .bool(true))
                let me = try await client.send(.get, "/me", bearer: victim.string("access_token"))
                #expect(me.string("full_name") == "Victor" && me.string("email") == "victim@example.com")
                #expect(try CompactJWS(parsing: victim.string("id_token")).claims["sub"]?.stringValue != attacker.string("user_sub"))
                // The attacker's password, code and sign-up are gone.
                let signIn = try await client.send(.post, "/auth/signin", json: ["email": "victim@example.com", "password": "attacker pass 1"])
                #expect(signIn.status == .unauthorized && signIn.errorCode == "invalid_credentials")
                let confirm = try await client.send(.post, "/auth/confirm", json: ["email": "victim@example.com", "code": .string(attackerCode)])
                #expect(confirm.status == .badRequest && confirm.errorCode == "code_mismatch")
                #expect(try await client.send(.get, "/me", bearer: victim.string("access_token")).status == .ok)
            }
        }
    }

    @Test func appleSendsTheEmailOnceAndTheNameNever() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let first = try await V.apple(
                    client,
                    issuer.token(.apple, audience: Clients.appleBundle, subject: "001234.abcd.0001", email: "x1y2@privaterelay.appleid.com"),
                    fullName: "Jane Appleseed"
                )
                #expect(first.status == .ok && first["is_new_user"] == .bool(true))
                // Later sign-ins carry no email; the name in the body is only a hint when none is known.
                let later = try await V.apple(
                    client,
                    issuer.token(.apple, audience: Clients.appleBundle, subject: "001234.abcd.0001", email: nil),
                    fullName: "Mallory"
                )
                #expect(later.status == .ok && later["is_new_user"] == .bool(false))
                #expect(
                    try CompactJWS(parsing: later.string("id_token")).claims["sub"]
                        == (try CompactJWS(parsing: first.string("id_token")).claims["sub"])
                )
                let me = try await client.send(.get, "/me", bearer: later.string("access_token"))
                #expect(me.string("email") == "x1y2@privaterelay.appleid.com" && me.string("full_name") == "Jane Appleseed")
                // The body's email is a hint at most: it never becomes the account's address.
                let hinted = try await client.send(
                    .post,
                    "/auth/apple",
                    json: [
                        "identity_token": .string(issuer.token(.apple, audience: Clients.appleBundle, subject: "001234.zzz", email: nil)),
                        "email": "ceo@example.com",
                    ]
                )
                #expect(try await client.send(.get, "/me", bearer: hinted.string("access_token"))["email"] == .null)
            }
        }
    }

    @Test func concurrentFirstSignInsMakeOneUser() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let token = issuer.token(.google, audience: Clients.googleWeb, subject: "g-race", email: "race@gmail.com")
                let subs = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            try CompactJWS(parsing: try await V.google(client, token).string("id_token")).claims["sub"]?.stringValue ?? ""
                        }
                    }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                #expect(subs.count == 1 && !subs.contains(""))
            }
        }
    }

    @Test func appleTokensAreKeptAndRevokedWhenTheAccountIsDeleted() async throws {
        try await FakeIssuer.run { issuer in
            let (app, applePublicKey) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                let appleCode = issuer.appleCode(for: "a-del")
                let signIn = try await V.apple(
                    client,
                    issuer.token(.apple, audience: Clients.appleBundle, subject: "a-del", email: "del@icloud.com"),
                    code: appleCode
                )
                #expect(signIn.status == .ok)
                let exchange = try #require(issuer.recorded.tokenRequests.first)
                #expect(
                    exchange["code"] == appleCode && exchange["client_id"] == Clients.appleBundle
                        && exchange["grant_type"] == "authorization_code"
                )
                // The client secret is an ES256 JWT signed with our .p8 key, for Apple.
                let secret = try #require(exchange["client_secret"])
                let parts = secret.split(separator: ".").map(String.init)
                let header = try StrictJSONParser().parse(Base64URL.decode(parts[0])!)
                let claims = try StrictJSONParser().parse(Base64URL.decode(parts[1])!)
                #expect(header.objectValue?["alg"] == "ES256" && header.objectValue?["kid"] == "KEY1234567")
                #expect(
                    claims.objectValue?["iss"] == "TEAM123456" && claims.objectValue?["aud"] == "https://appleid.apple.com"
                        && claims.objectValue?["sub"] == .string(Clients.appleBundle)
                )
                let signature = try P256.Signing.ECDSASignature(rawRepresentation: Base64URL.decode(parts[2])!)
                #expect(applePublicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
                // Apple's refresh token is stored sealed, not in clear.
                let sub = try CompactJWS(parsing: signIn.string("id_token")).claims["sub"]?.stringValue ?? ""
                let stored = try await app.built.store.read { try await $0.appleTokens(userID: sub) }
                #expect(stored.count == 1 && !stored[0].sealedRefreshToken.contains("apple-refresh-1"))

                #expect(try await client.send(.delete, "/me", bearer: signIn.string("access_token")).status == .noContent)
                let revoke = try #require(issuer.recorded.revokeRequests.first)
                #expect(
                    revoke["token"] == "apple-refresh-1" && revoke["token_type_hint"] == "refresh_token" && revoke["client_id"] == Clients.appleBundle
                )
                #expect(try await app.built.store.read { try await $0.appleTokens(userID: sub) }.isEmpty)
            }
        }
    }

    @Test func appleUnreachableAtDeletionIsRetriedLaterAndRecorded() async throws {
        let clock = TestClock(Date())
        try await FakeIssuer.run(clock: clock) { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, clock: clock)
            try await app.router { client in
                let signIn = try await V.apple(
                    client,
                    issuer.token(.apple, audience: Clients.appleBundle, subject: "a-down", email: nil),
                    code: issuer.appleCode(for: "a-down")
                )
                issuer.update { $0.appleDown = true }
                let deleted = try await client.send(.delete, "/me", bearer: signIn.string("access_token"))
                #expect(deleted.status == .noContent, "the deletion completes anyway")
                #expect(try await client.send(.get, "/me", bearer: signIn.string("access_token")).status == .unauthorized)
                let pending = try await app.built.store.read { try await $0.dueRevocations(now: clock.now().addingTimeInterval(3600), limit: 10) }
                #expect(pending.count == 1 && pending[0].attempts == 1 && pending[0].lastError != nil && pending[0].completedAt == nil)
                #expect(pending[0].nextAttemptAt > clock.now(), "backed off")
                // Apple comes back; the queue is worked off once the retry is due.
                issuer.update { $0.appleDown = false }
                clock.advance(by: 31)
                let vault = try #require(app.built.appleVault)
                #expect(try await vault.processDue(logger: .init(label: "t")) == 1)
                let done = try await app.built.store.read { try await $0.revocation(id: pending[0].id) }
                #expect(done?.completedAt != nil && done?.attempts == 2 && done?.sealedRefreshToken == "")
                #expect(issuer.recorded.revokeRequests.last?["token"] == "apple-refresh-1")
            }
        }
    }
}
