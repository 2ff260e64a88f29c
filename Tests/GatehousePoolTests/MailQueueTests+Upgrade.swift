import Foundation
import GatehouseCore
import GatehouseTesting
import Logging
import SQLKit
import Testing

@testable import GatehouseStore

extension MailQueueTests {
    /// A reset mail an older version queued and sealed (in `gh_mail_queue`, under `mail:<id>`) and had not
    /// sent yet when it stopped: this version migrates the queue to `gh_messages` on start and delivers it.
    @Test(arguments: TestDatabase.available)
    func mailQueuedByAnOlderVersionIsDeliveredAfterTheUpgrade(_ database: TestDatabase) async throws {
        let (url, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock()
        let queuedAt = Int64(clock.now().timeIntervalSince1970) - 60
        let request = MailRequest(kind: .resetPassword, to: "old@example.com", code: "654321", lifetime: 900)
        let sealed = try SecretBox(masterKey: Array(repeating: 1, count: 32)).seal(Array(try JSONEncoder().encode(request)), context: "mail:m-old")
        try await StoreLocation(url: url).withStore(logger: Self.logger) { store in
            try await Migrator(backend: store.backend, migrations: Migration.all.filter { $0.version < 18 }).migrate(logger: Self.logger)
            try await store.backend.write { db in
                try await db.raw(
                    """
                    INSERT INTO gh_mail_queue (id, channel, kind, state, sealed_request, attempts, next_attempt_at, created_at, updated_at)
                    VALUES ('m-old', 'mail', 'reset_password', 'queued', \(bind: sealed), 0, \(bind: queuedAt), \(bind: queuedAt), \(bind: queuedAt))
                    """
                ).run()
            }
        }
        try await PoolHarness.run(database: database, databaseURL: url, clock: clock) { h in
            #expect(await h.mailer.latestCode(to: "old@example.com", kind: "reset_password") == "654321", "delivered after the upgrade")
            let row = try require(try await h.store.read { try await $0.queuedMessage(id: "m-old") })
            #expect(row.state == .sent && row.sealing == .mail && row.sealedRequest == nil)
        }
    }
}
