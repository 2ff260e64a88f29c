import Foundation
import GatehouseCore
import Logging
import ServiceLifecycle

/// Where the store lives, from `GATEHOUSE_DATABASE_URL`: `sqlite:///absolute/path.db`,
/// `sqlite://relative/path.db`, or `postgres://user:pass@host:port/db?sslmode=…`.
public enum StoreLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(URL)

    public init(url: String) throws {
        if url.hasPrefix("sqlite://") {
            let path = String(url.dropFirst("sqlite://".count))
            guard !path.isEmpty else { throw GatehouseError.internalError(cause: "sqlite:// URL has no path") }
            self = .sqlite(path: path)
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            guard let parsed = URL(string: url) else { throw GatehouseError.internalError(cause: "invalid postgres URL") }
            self = .postgres(parsed)
        } else {
            throw GatehouseError.internalError(cause: "GATEHOUSE_DATABASE_URL must start with sqlite:// or postgres://")
        }
    }

    /// A description without the password, for logs.
    public var redacted: String {
        switch self {
        case .sqlite(let path): return "sqlite://\(path)"
        case .postgres(let url):
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            if components?.password != nil { components?.password = "***" }
            return components?.string ?? "postgres://…"
        }
    }

    /// Opens the store. The returned service must run alongside it: for PostgreSQL it owns the
    /// connection pool, for SQLite it checkpoints the write-ahead log (see ``SQLiteCheckpointer``).
    /// - Parameter logger: Where the store logs.
    /// - Returns: The store, and the service to run in the service group.
    /// - Throws: If the database cannot be opened.
    public func open(logger: Logger) async throws -> (store: SQLStore, service: (any Service)?) {
        switch self {
        case .sqlite(let path):
            let backend = try await SQLiteBackend.open(path: path, logger: logger)
            return (SQLStore(backend: backend, logger: logger), backend.checkpointer)
        case .postgres(let url):
            let backend = try PostgresBackend(url: url, logger: logger)
            return (SQLStore(backend: backend, logger: logger), PostgresClientService(client: backend.client))
        }
    }

    /// Opens the store in two steps, for a server whose services start before it may touch the
    /// database: nothing here reads or writes a file or a socket.
    /// - Parameter logger: Where the store logs.
    /// - Returns: `service`, to run in the service group from the start (PostgreSQL's connection pool,
    ///   which connects in its `run()`; nil for SQLite), and `open`, which opens the store once that
    ///   service runs (SQLite creates and opens its file here) and returns it with the service that must
    ///   run alongside it from then on (SQLite's checkpointer; nil for PostgreSQL).
    /// - Throws: If the URL cannot be turned into a client configuration.
    public func deferredOpen(
        logger: Logger
    ) throws -> (service: (any Service)?, open: @Sendable () async throws -> (store: SQLStore, service: (any Service)?)) {
        switch self {
        case .sqlite(let path):
            return (
                nil,
                {
                    let backend = try await SQLiteBackend.open(path: path, logger: logger)
                    return (SQLStore(backend: backend, logger: logger), backend.checkpointer)
                }
            )
        case .postgres(let url):
            let backend = try PostgresBackend(url: url, logger: logger)
            return (PostgresClientService(client: backend.client), { (SQLStore(backend: backend, logger: logger), nil) })
        }
    }
}

extension StoreLocation {
    /// Opens the store for a one-off job (bootstrap, `migrate`, CLI commands), running whatever it needs
    /// for the duration of `body`, and closes it after.
    public func withStore<T: Sendable>(logger: Logger, _ body: @escaping @Sendable (SQLStore) async throws -> T) async throws -> T {
        let (store, service) = try await open(logger: logger)
        guard let service else {
            do {
                let result = try await body(store)
                try? await store.close()
                return result
            } catch {
                try? await store.close()
                throw error
            }
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await service.run()
                return nil
            }
            defer { group.cancelAll() }
            do {
                let result = try await body(store)
                try? await store.close()
                return result
            } catch {
                try? await store.close()
                throw error
            }
        }
    }
}
