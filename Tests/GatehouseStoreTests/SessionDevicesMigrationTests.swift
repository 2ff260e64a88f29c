import Foundation
import GatehouseCore
import GatehouseTesting
import Logging
import SQLKit
import Testing

@testable import GatehouseStore

/// Migrations 12 (session devices) and 13 (email change) on a store with rows from before them: the
/// rows read back, with nothing where the new columns are.
@Suite("Store: sessions and codes written before migrations 12 and 13", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SessionDevicesMigrationTests {
    @Test(arguments: TestDatabase.available)
    func rowsFromBeforeReadBackWithoutDeviceOrAddress(_ database: TestDatabase) async throws {
        let (url, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "test-store")
        try await StoreLocation(url: url).withStore(logger: logger) { store in
            try await Migrator(backend: store.backend, migrations: Migration.all.filter { $0.version < 12 }).migrate(logger: logger)
            try await store.backend.write { db in
                try await db.raw(
                    "INSERT INTO gh_sessions (id, user_id, method, auth_time, created_at) VALUES ('s1', 'u1', 'password', 10, 10)"
                ).run()
                try await db.raw(
                    """
                    INSERT INTO gh_codes (user_id, purpose, code_hash, created_at, expires_at, attempts)
                    VALUES ('u1', 'reset_password', 'h', 10, 20, 1)
                    """
                ).run()
            }
            #expect(try await store.pendingMigrations().prefix(2) == ["12 session devices", "13 email change"])
            try await store.migrate(logger: logger)
            let session = try #require(try await store.read { try await $0.session(id: "s1") })
            #expect(session.userAgent == nil && session.clientAddress == nil && session.lastRefreshedAt == nil && session.isActive)
            #expect(try await store.read { try await $0.activeSessions(userID: "u1") }.map(\.id) == ["s1"])
            let code = try #require(try await store.read { try await $0.code(userID: "u1", purpose: .resetPassword) })
            #expect(code.address == nil && code.attempts == 1 && code.codeHash == "h")
        }
    }
}
