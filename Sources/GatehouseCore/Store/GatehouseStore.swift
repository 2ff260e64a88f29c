import Foundation

/// Persistence for the embedded pool and the app profiles, implemented over SQLite and PostgreSQL.
///
/// Every multi-step change runs inside one `write` block, which is one database transaction: the
/// block's statements all commit or none do. Ordinary data and secrets are split (as Kratos splits
/// `Pool` and `PrivilegedPool`): signing keys and other sealed values are reached only through
/// ``secrets``.
public protocol GatehouseStore: Sendable {
    /// Runs `body` against a consistent read-only view.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// Runs `body` in one write transaction. Throwing from `body` rolls everything back.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// The privileged part of the store.
    var secrets: any SecretStore { get }
    /// Deletes what has outlived its use (expired codes, ended sessions, stale counters).
    func purgeExpired(now: Date) async throws -> Int
    /// Answers when the database does.
    func ping() async throws
    /// A short name of the backend (`sqlite`, `postgres`) for logs and `/ready`.
    var backendName: String { get }
}
