import Foundation
import GatehouseCore
import GatehouseTesting
import Logging
import SQLKit
import Testing

@testable import GatehouseStore

/// Migration 17 (Apple's email relay on the Apple identity): rows from before it read back with the
/// flags unknown, and the store's relay methods keep their contract on both engines.
@Suite("Store: Apple email relay (migration 17)", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AppleEmailRelayMigrationTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: TestDatabase.available)
    func identitiesFromBeforeReadBackWithTheFlagsUnknown(_ database: TestDatabase) async throws {
        let (url, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "test-store")
        try await StoreLocation(url: url).withStore(logger: logger) { store in
            try await Migrator(backend: store.backend, migrations: Migration.all.filter { $0.version < 17 }).migrate(logger: logger)
            try await store.backend.write { db in
                try await db.raw(
                    """
                    INSERT INTO gh_identities (provider, provider_subject, user_id, email, email_verified, linked_at)
                    VALUES ('apple', 'a-old', 'u1', 'old@privaterelay.appleid.com', TRUE, 10)
                    """
                ).run()
            }
            #expect(try await store.pendingMigrations().first == "17 Apple email relay", "the schema is the one before 17")
            try await store.migrate(logger: logger)
            let identity = try #require(try await store.read { try await $0.identity(provider: "apple", subject: "a-old") })
            #expect(identity.isPrivateEmail == nil && identity.emailForwarding == nil && identity.email == "old@privaterelay.appleid.com")
            #expect(try await store.read { try await $0.isRelayForwardingOff(address: "old@privaterelay.appleid.com") } == false)
            // The first notification sets the flag on the old row.
            #expect(
                try await store.write {
                    try await $0.setEmailForwarding(appleSubject: "a-old", forwarding: false, isPrivateEmail: nil, eventTime: Self.t0)
                }
            )
            #expect(try await store.read { try await $0.identities(userID: "u1") }.first?.emailForwarding == false)
        }
    }

    @Test(arguments: TestDatabase.available)
    func forwardingFollowsTheLatestEventAndOnlyAppleIdentities(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let apple = IdentityRecord(
                provider: "apple",
                providerSubject: "a-1",
                userID: "u1",
                email: "Relay1@privaterelay.appleid.com",
                emailVerified: true,
                linkedAt: Self.t0,
                isPrivateEmail: true
            )
            let google = IdentityRecord(
                provider: "google",
                providerSubject: "a-1",
                userID: "u2",
                email: "g@gmail.com",
                emailVerified: true,
                linkedAt: Self.t0
            )
            try await store.write {
                try await $0.insertIdentity(apple)
                try await $0.insertIdentity(google)
            }
            #expect(try await store.read { try await $0.identity(provider: "apple", subject: "a-1") } == apple, "the flag round-trips")
            func set(_ on: Bool, _ offset: TimeInterval, subject: String = "a-1", isPrivate: Bool? = nil) async throws -> Bool {
                try await store.write {
                    try await $0.setEmailForwarding(appleSubject: subject, forwarding: on, isPrivateEmail: isPrivate, eventTime: Self.t0 + offset)
                }
            }
            func off(_ address: String) async throws -> Bool { try await store.read { try await $0.isRelayForwardingOff(address: address) } }

            #expect(try await set(false, 10))
            #expect(try await off("relay1@PRIVATERELAY.appleid.com"), "compared without case")
            #expect(try await off("g@gmail.com") == false)
            #expect(try await off("other@privaterelay.appleid.com") == false)
            #expect(try await set(true, 5) == false, "an older event does not undo a newer one")
            #expect(try await off("relay1@privaterelay.appleid.com"))
            #expect(try await set(true, 20, isPrivate: false))
            #expect(try await off("relay1@privaterelay.appleid.com") == false)
            let stored = try await store.read { try await $0.identity(provider: "apple", subject: "a-1") }
            #expect(stored?.emailForwarding == true && stored?.isPrivateEmail == false, "the notification's is_private_email is written")
            #expect(try await set(false, 30, isPrivate: nil))
            #expect(try await store.read { try await $0.identity(provider: "apple", subject: "a-1") }?.isPrivateEmail == false, "kept when absent")

            #expect(try await set(false, 40, subject: "a-unknown") == false, "an unknown Apple ID changes nothing")
            #expect(
                try await store.read { try await $0.identity(provider: "google", subject: "a-1") } == google,
                "another provider's row is untouched"
            )

            // A sign-in's update writes is_private_email and leaves forwarding alone.
            var signedIn = try #require(try await store.read { try await $0.identity(provider: "apple", subject: "a-1") })
            signedIn.isPrivateEmail = true
            let update = signedIn
            try await store.write { try await $0.updateIdentity(update) }
            let after = try await store.read { try await $0.identity(provider: "apple", subject: "a-1") }
            #expect(after?.isPrivateEmail == true && after?.emailForwarding == false)
        }
    }
}
