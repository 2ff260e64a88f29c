import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Logging
import SQLKit
import Testing

@testable import GatehouseStore

/// Migration 18 (the queue becomes `gh_messages`, bodies sealed under `message:<id>`) on a database an
/// older version wrote: what it queued is still claimed and opens, and on PostgreSQL an older instance
/// running beside the new one during a rolling upgrade keeps queueing and delivering through
/// `gh_mail_queue` without ever claiming a row it could not open.
@Suite("Store: the message-queue rename keeps what older versions queued", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct MessagesMigrationTests {
    static let logger = Logger(label: "test-store")
    static func box() throws -> SecretBox { try SecretBox(masterKey: Array(repeating: 1, count: 32)) }

    /// The request an older version queued, sealed as it sealed it (context `mail:<id>`).
    static func oldRow(_ id: String, to: String, code: String) throws -> (request: MailRequest, sealed: String) {
        let request = MailRequest(kind: .resetPassword, to: to, code: code, lifetime: 900)
        return (request, try box().seal(Array(try JSONEncoder().encode(request)), context: "mail:\(id)"))
    }

    /// An older version's insert, word for word (before migration 18 it wrote `gh_mail_queue`).
    static func oldInsert(_ db: any SQLDatabase, id: String, sealed: String, at: Int64 = 1) async throws {
        try await db.raw(
            """
            INSERT INTO gh_mail_queue (id, channel, kind, state, sealed_request, attempts, next_attempt_at, created_at, updated_at)
            VALUES (\(bind: id), 'mail', 'reset_password', 'queued', \(bind: sealed), 0, \(bind: at), \(bind: at), \(bind: at))
            """
        ).run()
    }

    static func request(of message: QueuedMessage) throws -> MailRequest {
        let sealed = try #require(message.sealedRequest)
        return try JSONDecoder().decode(MailRequest.self, from: Data(box().open(sealed, context: message.sealingContext)))
    }

    @Test(arguments: TestDatabase.available)
    func messagesQueuedBeforeTheUpgradeAreClaimedAndOpenAfterIt(_ database: TestDatabase) async throws {
        let (url, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await StoreLocation(url: url).withStore(logger: Self.logger) { store in
            try await Migrator(backend: store.backend, migrations: Migration.all.filter { $0.version < 18 }).migrate(logger: Self.logger)
            let old = try Self.oldRow("m1", to: "ann@example.com", code: "424242")
            try await store.backend.write { db in try await Self.oldInsert(db, id: "m1", sealed: old.sealed) }
            #expect(try await store.pendingMigrations().first == "18 messages", "the schema is the one before 18")
            try await store.migrate(logger: Self.logger)

            let row = try #require(try await store.read { try await $0.queuedMessage(id: "m1") })
            #expect(row.sealing == .mail && row.sealingContext == "mail:m1" && row.state == .queued && row.channel == "mail")
            #expect(try Self.request(of: row) == old.request, "the older version's body opens under its own context")

            let enqueuer = DeliveryEnqueuer(box: try Self.box(), random: SystemRandomSource(), wakeUp: DeliveryWakeUp())
            let now = Date(timeIntervalSince1970: 2)
            let fresh = MailRequest(kind: .confirmSignUp, to: "bob@example.com", code: "777777", lifetime: 900)
            try await store.write { tx in try await enqueuer.enqueue(fresh, now: now, in: tx) }
            let claimed = try await store.write {
                try await $0.claimDueMessages(now: now, lease: "l", leaseUntil: now.addingTimeInterval(60), limit: 10, channels: ["mail"])
            }
            #expect(claimed.map(\.sealing) == [.mail, .message], "both the old row and the new one are claimed, oldest first")
            #expect(try claimed.map { try Self.request(of: $0) } == [old.request, fresh])
            let new = try #require(claimed.last)
            #expect(new.sealingContext == "message:\(new.id)")
            #expect(throws: (any Error).self, "a new row is sealed under the new context only") {
                try Self.box().open(try #require(new.sealedRequest), context: "mail:\(new.id)")
            }
            #expect(try await store.write { try await $0.markMessageSent(id: "m1", lease: "l", at: now) })
            #expect(try await store.read { try await $0.messageQueueCounts() }.queued == 1)
        }
    }

    /// A rolling upgrade: an older instance (its statements verbatim) and this version on one
    /// PostgreSQL database after migration 18. The older one queues and delivers through the
    /// `gh_mail_queue` view and never sees the rows it could not open; this version delivers both.
    @Test(arguments: TestDatabase.available.filter { $0 == .postgres })
    func anOlderInstanceKeepsWorkingThroughTheUpgrade(_ database: TestDatabase) async throws {
        let (url, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await StoreLocation(url: url).withStore(logger: Self.logger) { store in
            try await Migrator(backend: store.backend, migrations: Migration.all.filter { $0.version < 18 }).migrate(logger: Self.logger)
            let before = try Self.oldRow("m0", to: "ann@example.com", code: "111111")
            try await store.backend.write { db in try await Self.oldInsert(db, id: "m0", sealed: before.sealed) }
            try await store.migrate(logger: Self.logger)

            // The older instance queues after the upgrade; this version queues too.
            let during = try Self.oldRow("m2", to: "cid@example.com", code: "222222")
            try await store.backend.write { db in try await Self.oldInsert(db, id: "m2", sealed: during.sealed, at: 2) }
            let enqueuer = DeliveryEnqueuer(box: try Self.box(), random: SystemRandomSource(), wakeUp: DeliveryWakeUp())
            let fresh = MailRequest(kind: .confirmSignUp, to: "dan@example.com", code: "333333", lifetime: 900)
            try await store.write { tx in try await enqueuer.enqueue(fresh, now: Date(timeIntervalSince1970: 2), in: tx) }

            // The older instance's claim, word for word: only the rows it can open.
            let oldClaim = try await store.backend.write { db in
                try await db.raw(
                    """
                    UPDATE gh_mail_queue SET lease = 'old', lease_until = 100
                    WHERE id IN (
                        SELECT id FROM gh_mail_queue
                        WHERE state = 'queued' AND next_attempt_at <= 5 AND (lease_until IS NULL OR lease_until <= 5)
                            AND channel IN ('mail', 'sms', 'webhook')
                        ORDER BY next_attempt_at, id LIMIT 10 FOR UPDATE SKIP LOCKED
                    )
                    RETURNING id, channel, kind, state, sealed_request, attempts, next_attempt_at, created_at, last_error
                    """
                ).all().map { try $0.decode(column: "id", as: String.self) }
            }
            #expect(Set(oldClaim) == ["m0", "m2"], "never the row sealed under message:")
            let oldSent = try await store.backend.write { db in
                try await db.raw(
                    """
                    UPDATE gh_mail_queue SET state = 'sent', sealed_request = NULL, lease = NULL, lease_until = NULL, last_error = NULL,
                        attempts = attempts + 1, updated_at = 3
                    WHERE id = 'm0' AND lease = 'old' AND state = 'queued' RETURNING id
                    """
                ).first()
            }
            #expect(oldSent != nil, "the older instance records its delivery")
            // It dies holding m2; once the lease runs out, this version delivers it, and its own row.
            let claimed = try await store.write {
                try await $0.claimDueMessages(now: Date(timeIntervalSince1970: 101), lease: "new", leaseUntil: Date(), limit: 10, channels: ["mail"])
            }
            #expect(claimed.map(\.id).contains("m2") && claimed.count == 2)
            #expect(try Set(claimed.map { try Self.request(of: $0).code ?? "" }) == ["222222", "333333"])
            #expect(try await store.read { try await $0.queuedMessage(id: "m0") }?.state == .sent)
        }
    }
}
