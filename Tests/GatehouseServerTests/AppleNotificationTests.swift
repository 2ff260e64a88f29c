import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Apple's server-to-server notifications (issue 30, part 3), signed by the fake Apple key set.
@Suite("Apple server-to-server notifications", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AppleNotificationTests {
    typealias V = SocialVerificationTests

    /// A notification as Apple sends it: `events` is a JSON object serialised into a string. Its times
    /// are the app's clock (which the fake issuer follows), not the wall clock: a loaded machine must
    /// not make it look issued in the future.
    static func payload(
        _ issuer: FakeIssuer,
        at clock: TestClock,
        type: String,
        subject: String,
        audience: String = Clients.appleBundle,
        iat: Date? = nil,
        eventTime: Int64? = nil,
        changing: [String: JSONValue?] = [:],
        signedWith key: SigningKey? = nil
    ) -> String {
        let now = Int64((iat ?? clock.now()).timeIntervalSince1970)
        let events: JSONValue = [
            "type": .string(type), "sub": .string(subject), "event_time": .number(Double(eventTime ?? now * 1000)),
            "email": "x1@privaterelay.appleid.com", "is_private_email": "true",
        ]
        let claims: [String: JSONValue] = [
            "iss": "https://appleid.apple.com", "aud": .string(audience), "iat": .number(Double(now)), "jti": .string(UUID().uuidString),
            "events": .string(events.serializedString()),
        ]
        return issuer.token(.apple, claims: claims, changing: changing, signedWith: key)
    }

    static func notify(_ client: any TestClientProtocol, _ payload: String) async throws {
        let reply = try await client.send(.post, "/auth/apple/notifications", json: ["payload": .string(payload)])
        #expect(reply.status == .ok && reply["received"] == true)
    }

    static func appleSignIn(_ client: any TestClientProtocol, _ issuer: FakeIssuer, subject: String, email: String) async throws -> Reply {
        let reply = try await V.apple(client, issuer.token(.apple, audience: Clients.appleBundle, subject: subject, email: email))
        #expect(reply.status == .ok, "\(reply.bodyText)")
        return reply
    }

    static func sub(_ reply: Reply) throws -> String { try CompactJWS(parsing: reply.string("id_token")).claims["sub"]?.stringValue ?? "" }

    static func audit(_ app: TestApp, _ sub: String, _ event: AuditEvent) async throws -> [AuditEntry] {
        try await app.built.store.read { try await $0.auditEntries(AuditQuery(userID: sub, event: event)) }
    }

    static func refresh(_ client: any TestClientProtocol, _ reply: Reply) async throws -> Reply {
        try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(reply.string("refresh_token"))])
    }

    @Test(arguments: TestDatabase.available)
    func eachEventTypeHasItsEffectOnce(database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                // An Apple-only account.
                let only = try await Self.appleSignIn(client, issuer, subject: "apple-only", email: "x1@privaterelay.appleid.com")
                let onlySub = try Self.sub(only)

                let disabled = Self.payload(issuer, at: app.clock, type: "email-disabled", subject: "apple-only")
                try await Self.notify(client, disabled)
                try await Self.notify(client, disabled)  // Apple's retry, or a replay: handled once
                let entries = try await Self.audit(app, onlySub, .appleEmailDisabled)
                #expect(entries.count == 1 && entries.first?.actor == "apple" && entries.first?.detail == "forwarding=off; is_private_email=true")
                try await Self.notify(client, Self.payload(issuer, at: app.clock, type: "email-enabled", subject: "apple-only"))
                #expect(try await Self.audit(app, onlySub, .appleEmailEnabled).count == 1)

                // consent-revoked with no other way in: unlinked, sessions ended, account disabled.
                try await Self.notify(client, Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-only"))
                #expect(try await Self.refresh(client, only).status == .unauthorized)
                let me = try await client.send(.get, "/me", bearer: only.string("access_token"))
                #expect(me.status == .unauthorized)
                let user = try await app.built.store.read { try await $0.user(id: onlySub) }
                #expect(user != nil && user?.disabledAt != nil)
                #expect(try await app.built.store.read { try await $0.identity(provider: "apple", subject: "apple-only") } == nil)
                #expect(try await Self.audit(app, onlySub, .appleConsentRevoked).first?.detail == "unlinked; disabled: no other way in")

                // consent-revoked on an account with a password: only the Apple session ends, the account stays.
                let password = try await client.signedIn(app, email: "bob@example.com")
                let bobSub = try Self.sub(password)
                let linked = try await Self.appleSignIn(client, issuer, subject: "apple-bob", email: "bob@example.com")
                #expect(try Self.sub(linked) == bobSub, "linked to the password account")
                try await Self.notify(client, Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-bob"))
                #expect(try await Self.refresh(client, linked).status == .unauthorized)
                #expect(try await Self.refresh(client, password).status == .ok, "the password session lives on")
                #expect(try await app.built.store.read { try await $0.user(id: bobSub) }?.disabledAt == nil)
                #expect(try await Self.audit(app, bobSub, .appleConsentRevoked).first?.detail == "unlinked")
                let identities = try await app.built.store.read { try await $0.identities(userID: bobSub) }.map(\.provider)
                #expect(!identities.contains("apple"))

                // account-delete: deleted as DELETE /me does.
                let carol = try await Self.appleSignIn(client, issuer, subject: "apple-carol", email: "carol@example.com")
                let carolSub = try Self.sub(carol)
                try await Self.notify(client, Self.payload(issuer, at: app.clock, type: "account-delete", subject: "apple-carol"))
                #expect(try await app.built.store.read { try await $0.user(id: carolSub) } == nil)
                #expect(try await client.send(.get, "/me", bearer: carol.string("access_token")).status == .unauthorized)
                let deleted = try await app.built.store.read { try await $0.auditEntries(AuditQuery(userID: carolSub, event: .accountDeleted)) }
                #expect(deleted.first?.actor == "apple")
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func forgedStaleReplayedOrUnknownNotificationsChangeNothingAndAnswerAlike(database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                _ = try await client.signedIn(app, email: "alice@example.com")
                let alice = try await Self.appleSignIn(client, issuer, subject: "apple-alice", email: "alice@example.com")
                let sub = try Self.sub(alice)
                let forger = try SigningKey.generate(use: .idToken, kid: "apple-key-1", now: app.clock.now())
                let now = app.clock.now()
                let refused: [(String, String)] = [
                    (Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-alice", signedWith: forger), "forged signature"),
                    (
                        Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-alice", audience: "com.other.app"),
                        "wrong audience"
                    ),
                    (
                        Self.payload(
                            issuer,
                            at: app.clock,
                            type: "consent-revoked",
                            subject: "apple-alice",
                            changing: ["iss": "https://evil.example"]
                        ),
                        "wrong issuer"
                    ),
                    (
                        Self.payload(
                            issuer,
                            at: app.clock,
                            type: "consent-revoked",
                            subject: "apple-alice",
                            iat: now.addingTimeInterval(-2 * 86_400)
                        ), "stale"
                    ),
                    (
                        Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-alice", iat: now.addingTimeInterval(600)),
                        "from the future"
                    ),
                    (Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-alice", changing: ["iat": nil]), "no iat"),
                    (
                        Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-alice", changing: ["events": "{not json"]),
                        "garbage events"
                    ),
                    (Self.payload(issuer, at: app.clock, type: "password-changed", subject: "apple-alice"), "unknown type"),
                    (Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-nobody"), "unknown user"),
                    (Self.payload(issuer, at: app.clock, type: "account-delete", subject: "apple-nobody"), "unknown user deleted"),
                    ("not.a.jws", "not a JWS"),
                ]
                for (payload, label) in refused {
                    let reply = try await client.send(.post, "/auth/apple/notifications", json: ["payload": .string(payload)])
                    #expect(reply.status == .ok && reply.bodyText == #"{"received":true}"#, "\(label)")
                }
                for raw in ["", "{", #"{"payload": 5}"#, #"["x"]"#] {
                    let reply = try await client.send(.post, "/auth/apple/notifications", raw: raw)
                    #expect(reply.status == .ok && reply.bodyText == #"{"received":true}"#, "\(raw)")
                }
                let fresh = try await Self.refresh(client, alice)
                #expect(fresh.status == .ok, "nothing happened to the account")
                #expect(try await Self.audit(app, sub, .appleConsentRevoked).isEmpty)

                // A consent revocation replayed after the user signed in with Apple again (relinked by the
                // verified address) does not end the new session.
                let revoked = Self.payload(issuer, at: app.clock, type: "consent-revoked", subject: "apple-alice")
                try await Self.notify(client, revoked)
                #expect(try await Self.refresh(client, fresh).status == .unauthorized)
                let again = try await V.apple(
                    client,
                    issuer.token(.apple, audience: Clients.appleBundle, subject: "apple-alice", email: "alice@example.com")
                )
                try await Self.notify(client, revoked)
                #expect(again.status == .ok)
                #expect(try Self.sub(again) == sub, "relinked")
                #expect(try await Self.refresh(client, again).status == .ok, "the replay did nothing")
                #expect(try await Self.audit(app, sub, .appleConsentRevoked).count == 1)
            }
        }
    }
}
