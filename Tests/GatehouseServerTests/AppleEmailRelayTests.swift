import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Apple's email relay flag: Apple sign-in writes `is_private_email`, `email-disabled` and
/// `email-enabled` turn forwarding off and on, `GET /me` shows both, and mail to a relay address whose
/// forwarding is off is dead-lettered at once instead of sent.
@Suite("Apple email relay", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AppleEmailRelayTests {
    typealias N = AppleNotificationTests
    static let relay = "x1@privaterelay.appleid.com"

    /// The Apple entry of `GET /me`'s identities.
    static func appleEntry(_ client: any TestClientProtocol, _ reply: Reply) async throws -> [String: JSONValue] {
        let me = try await client.send(.get, "/me", bearer: reply.string("access_token"))
        #expect(me.status == .ok, "\(me.bodyText)")
        let entries = me["identities"]?.arrayValue ?? []
        return try #require(entries.compactMap(\.objectValue).first { $0["provider"] == "apple" }, "\(me.bodyText)")
    }

    static func stored(_ app: TestApp, _ subject: String) async throws -> IdentityRecord? {
        try await app.built.store.read { try await $0.identity(provider: "apple", subject: subject) }
    }

    @Test(arguments: TestDatabase.available)
    func signInWritesTheFlagAndNotificationsFlipForwarding(database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let signedIn = try await N.appleSignIn(client, issuer, subject: "apple-relay", email: Self.relay)
                var entry = try await Self.appleEntry(client, signedIn)
                #expect(entry["is_private_email"] == true && entry["email_forwarding"] == nil, "a relay address, forwarding not reported")

                let base = Int64(app.clock.now().timeIntervalSince1970) * 1000
                let disabled = N.payload(issuer, at: app.clock, type: "email-disabled", subject: "apple-relay", eventTime: base)
                try await N.notify(client, disabled)
                entry = try await Self.appleEntry(client, signedIn)
                #expect(entry["email_forwarding"] == false && entry["is_private_email"] == true, "\(entry)")

                // A replay, and an email-enabled older than the email-disabled (Apple's retry arriving
                // late), change nothing.
                try await N.notify(client, disabled)
                let late = N.payload(issuer, at: app.clock, type: "email-enabled", subject: "apple-relay", eventTime: base - 5_000)
                try await N.notify(client, late)
                #expect(try await Self.stored(app, "apple-relay")?.emailForwarding == false)
                let sub = try N.sub(signedIn)
                #expect(try await N.audit(app, sub, .appleEmailDisabled).count == 1)
                #expect(try await N.audit(app, sub, .appleEmailEnabled).isEmpty, "the late event is not recorded as a change")

                let enabled = N.payload(issuer, at: app.clock, type: "email-enabled", subject: "apple-relay", eventTime: base + 1_000)
                try await N.notify(client, enabled)
                entry = try await Self.appleEntry(client, signedIn)
                #expect(entry["email_forwarding"] == true)
                #expect(try await N.audit(app, sub, .appleEmailEnabled).first?.detail == "forwarding=on; is_private_email=true")

                // The next sign-in writes what its token says (a shared real address now), and keeps forwarding.
                let shared = try await N.appleSignIn(client, issuer, subject: "apple-relay", email: "real@example.com")
                entry = try await Self.appleEntry(client, shared)
                #expect(entry["is_private_email"] == false && entry["email_forwarding"] == true, "\(entry)")

                // A password account has no relay fields; hostile input: a notification for an unknown
                // Apple ID changes no row.
                let other = try await client.signedIn(app, email: "bob@example.com")
                let bobMe = try await client.send(.get, "/me", bearer: other.string("access_token"))
                let bobEntry = bobMe["identities"]?.arrayValue?.first?.objectValue ?? [:]
                #expect(bobEntry["provider"] == "password" && bobEntry["is_private_email"] == nil && bobEntry["email_forwarding"] == nil)
                let before = try await app.built.store.read { try await $0.identities(userID: sub) }
                try await N.notify(client, N.payload(issuer, at: app.clock, type: "email-disabled", subject: "apple-nobody", eventTime: base + 9_000))
                #expect(try await app.built.store.read { try await $0.identities(userID: sub) } == before)
                #expect(try await app.built.store.read { try await $0.isRelayForwardingOff(address: Self.relay) } == false)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func mailToARelayAddressWithForwardingOffIsDeadLetteredAndTheAnswerIsUnchanged(database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let address = "x7@privaterelay.appleid.com"
                _ = try await client.signedIn(app, email: address)
                let linked = try await N.appleSignIn(client, issuer, subject: "apple-x7", email: address)
                #expect(try await Self.appleEntry(client, linked)["is_private_email"] == true, "linked to the password account")
                try await N.notify(client, N.payload(issuer, at: app.clock, type: "email-disabled", subject: "apple-x7"))
                app.mailer.clear()
                app.clock.advance(by: 600)  // past the per-address limit on mailed codes since the sign-up

                let forgot = try await client.send(.post, "/auth/password/forgot", json: ["email": .string(address)])
                let unknown = try await client.send(.post, "/auth/password/forgot", json: ["email": "nobody@example.com"])
                #expect(forgot.status == .ok && unknown.status == .ok, "\(forgot.bodyText)")
                #expect(forgot.object.keys.sorted() == unknown.object.keys.sorted(), "the caller learns nothing of the address")
                #expect(await app.mailer.messages(to: address).isEmpty, "nothing sent to a relay that cannot forward")
                let counts = try await app.built.store.read { try await $0.messageQueueCounts() }
                #expect(counts.dead == 1 && counts.queued == 0, "dead-lettered at once, not retried: \(counts)")
                let metrics = try await client.send(.get, "/metrics").bodyText
                #expect(metrics.contains(#"gatehouse_mail_dead_total{kind="reset_password"} 1"#), "\(metrics)")

                // Forwarding back on: mail goes out again.
                let later = Int64(app.clock.now().timeIntervalSince1970) * 1000 + 1_000
                try await N.notify(client, N.payload(issuer, at: app.clock, type: "email-enabled", subject: "apple-x7", eventTime: later))
                app.clock.advance(by: 600)
                _ = try await client.send(.post, "/auth/password/forgot", json: ["email": .string(address)])
                #expect(await app.mailer.latestCode(to: address, kind: "reset_password") != nil)
            }
        }
    }
}
