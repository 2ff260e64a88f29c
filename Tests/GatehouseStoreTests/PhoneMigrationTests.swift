import Foundation
import GatehouseCore
import GatehouseTesting
import Logging
import SQLKit
import Testing

@testable import GatehouseStore

/// Migrations 6 (phone numbers), 7 (operator flags) and 8 (throttle blocks in milliseconds) on a
/// database written by an earlier version: nothing is lost — a message queued before the upgrade is
/// still delivered, on the mail channel, existing users and profiles read back with no number, and a
/// throttle block set in whole seconds still holds until the same moment.
@Suite("Store: the phone-number migration keeps what was there", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct PhoneMigrationTests {
    @Test(arguments: TestDatabase.available)
    func rowsWrittenBeforeTheUpgradeReadBackAfterIt(_ database: TestDatabase) async throws {
        let (url, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "test-store")
        try await StoreLocation(url: url).withStore(logger: logger) { store in
            let previous = Migration.all.filter { $0.version < 6 }
            try await Migrator(backend: store.backend, migrations: previous).migrate(logger: logger)
            try await store.backend.write { db in
                try await db.raw(
                    """
                    INSERT INTO gh_users (id, email, email_key, email_verified, password_hash, confirmed, name, created_at, updated_at)
                    VALUES ('u1', 'ann@example.com', 'ann@example.com', TRUE, NULL, TRUE, 'Ann', 1, 1)
                    """
                ).run()
                try await db.raw(
                    "INSERT INTO gh_profiles (sub, email, email_verified, full_name, created_at, updated_at) VALUES ('u1', 'ann@example.com', TRUE, 'Ann', 1, 1)"
                ).run()
                try await db.raw(
                    """
                    INSERT INTO gh_mail_queue (id, kind, state, sealed_request, attempts, next_attempt_at, created_at, updated_at)
                    VALUES ('m1', 'reset_password', 'queued', 'sealed', 0, 1, 1, 1)
                    """
                ).run()
                try await db.raw(
                    "INSERT INTO gh_rate_limits (bucket, count, window_start, blocked_until) VALUES ('b1', 7, 1, 2000000000)"
                ).run()
            }
            let pending = try await store.pendingMigrations()
            #expect(
                pending.prefix(6) == [
                    "6 phone numbers", "7 operator flags", "8 throttle blocks in milliseconds", "9 SRP verifiers", "10 Passkeys",
                    "11 Second factor",
                ]
            )
            #expect(pending == Migration.all.filter { $0.version >= 6 }.map { "\($0.version) \($0.name)" })
            try await store.migrate(logger: logger)
            let (user, profile, mail) = try await store.read { tx in
                (try await tx.user(id: "u1"), try await tx.profile(sub: "u1"), try await tx.queuedMessage(id: "m1"))
            }
            #expect(user?.email == "ann@example.com" && user?.phone == nil)
            #expect(profile?.fullName == "Ann" && profile?.phone == nil && profile?.phoneVerified == false && profile?.isSuperuser == false)
            #expect(mail?.channel == "mail" && mail?.state == .queued && mail?.sealedRequest == "sealed")
            let counter = try await store.read { try await $0.counter(bucket: "b1") }
            #expect(counter?.count == 7 && counter?.blockedUntil == Date(epochSeconds: 2_000_000_000), "the block holds as before")
            let claimed = try await store.write {
                try await $0.claimDueMessages(
                    now: Date(timeIntervalSince1970: 2),
                    lease: "l",
                    leaseUntil: Date(),
                    limit: 5,
                    channels: ["mail", "sms"]
                )
            }
            #expect(claimed.map(\.id) == ["m1"], "the old message is still delivered")
        }
    }
}
