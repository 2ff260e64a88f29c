import Foundation
import GatehouseCore
import SQLKit

/// A database the SQL store runs on: where reads and write transactions get a connection.
/// One implementation per engine; everything above it is shared SQL.
protocol SQLBackend: Sendable {
    var name: String { get }
    /// Runs `body` on a connection; each statement sees committed data.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs `body` inside BEGIN … COMMIT on one connection, rolling back if it throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Like ``write(_:)``, for migrations: no time bound (a migration may wait for another instance's).
    func migrationWrite<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Whether `error` is a uniqueness violation.
    func isUniqueViolation(_ error: any Error) -> Bool
    /// Whether `error` means the database cannot be reached or used at all (→ 503).
    func isUnavailable(_ error: any Error) -> Bool
    /// Runs once before migrations (creates the PostgreSQL schema named in the URL, if any).
    func prepareForMigration() async throws
    /// Serialises migrations across processes (inside a write transaction).
    func lockForMigration(_ db: any SQLDatabase) async throws
    func close() async throws
}

extension SQLBackend {
    func migrationWrite<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await write(body)
    }
}
