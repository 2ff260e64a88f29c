import Foundation
import GatehouseCore
import GatehouseStore
import Logging

/// The databases test suites run against: SQLite always (a fresh file per test), PostgreSQL when
/// `GATEHOUSE_TEST_POSTGRES_URL` names a server (a fresh schema per test). CI sets the URL and
/// `GATEHOUSE_REQUIRE_ALL_SUITES=1`, which turns a missing backend into a failure instead of a skip.
public enum TestDatabase: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }

    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["GATEHOUSE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether suites may be skipped (locally) or must all run (CI).
    public static var requireAllSuites: Bool {
        ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_ALL_SUITES"] == "1"
    }

    /// The backends available here; in CI a missing PostgreSQL is an error.
    public static var available: [TestDatabase] {
        // In CI PostgreSQL is always on the list: without a server its tests fail instead of vanishing.
        if postgresURL != nil || requireAllSuites { return [.sqlite, .postgres] }
        FileHandle.standardError.write(Data("note: PostgreSQL suites skipped (set GATEHOUSE_TEST_POSTGRES_URL to run them)\n".utf8))
        return [.sqlite]
    }

    /// A database URL for one test: a new SQLite file in a new directory, or a new PostgreSQL schema.
    public func freshURL() -> (url: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch self {
        case .sqlite:
            return ("sqlite://" + directory.appendingPathComponent("test.sqlite").path, directory)
        case .postgres:
            let base = TestDatabase.postgresURL ?? "postgres://postgres@127.0.0.1:5432/postgres"
            let schema = "gh_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
            let separator = base.contains("?") ? "&" : "?"
            // Generous time bounds: the whole suite runs on a few cores at once, and a pooled connection can
            // be seconds away. These tests check correctness under concurrency; the bounds themselves are
            // the fleet tests' subject (with their own short settings).
            // Five connections per app, not the default twenty: a full run holds dozens of apps on one
            // server at once, and PostgreSQL refuses clients past its max_connections (CI sets 300).
            return (base + separator + "search_path=" + schema + "&acquire_timeout=60&query_timeout=60&pool_size=5", directory)
        }
    }

    /// Opens a migrated store for the duration of `body`.
    public func withStore<T: Sendable>(_ body: @escaping @Sendable (SQLStore) async throws -> T) async throws -> T {
        let (url, directory) = freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "test-store")
        return try await StoreLocation(url: url).withStore(logger: logger) { store in
            try await store.migrate(logger: logger)
            return try await body(store)
        }
    }
}
