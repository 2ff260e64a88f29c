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
}

extension StoreLocation {
    /// Opens the store for a one-off job (bootstrap, `migrate`, CLI commands), running whatever it needs
    /// for the duration of `body`, and closes it after.
    public func withStore<T: Sendable>(logger: Logger, _ body: @escaping @Sendable (SQLStore) async throws -> T) async throws -> T {
        let store = try SQLStore(location: self, logger: logger)
        try await store.open()
        let service = store.service
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
