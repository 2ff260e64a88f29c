import Foundation
import GatehouseCore
import Logging
import NIOSSL
import PostgresKit
import PostgresNIO
import SQLKit
import ServiceLifecycle

/// PostgreSQL through postgres-nio's `PostgresClient` pool, for several instances sharing one
/// database. The client's `run()` must be running (it is a `Service` in the app's service group).
final class PostgresBackend: SQLBackend {
    let name = "postgres"
    let client: PostgresClient
    private let logger: Logger

    /// The schema named by `?search_path=` in the URL: Gatehouse's tables live there.
    let schema: String?
    /// How long a store operation waits for a pooled connection, and how long it may then run.
    let timeouts: PostgresTimeouts

    init(url: URL, logger: Logger) throws {
        self.schema = try Self.schema(from: url)
        self.timeouts = try PostgresTimeouts(url: url)
        var configuration = try Self.configuration(from: url)
        configuration.options.additionalStartupParameters.append(("statement_timeout", "\(timeouts.statementMilliseconds)"))
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    static func schema(from url: URL) throws -> String? {
        guard let value = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first(where: { $0.name == "search_path" })?.value
        else {
            return nil
        }
        guard let first = value.unicodeScalars.first, first == "_" || ("a"..."z").contains(first),
            value.unicodeScalars.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }), value.count <= 63
        else { throw GatehouseError.internalError(cause: "search_path must be a lower-case identifier ([a-z_][a-z0-9_]*)") }
        return value
    }

    static func configuration(from url: URL) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.host, !host.isEmpty
        else { throw GatehouseError.internalError(cause: "GATEHOUSE_DATABASE_URL is not a valid postgres:// URL") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        let sslMode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "require", "verify-full", "verify-ca":
            var config = TLSConfiguration.makeClientConfiguration()
            if sslMode == "require" { config.certificateVerification = .none }
            tls = .require(config)
        default:
            var config = TLSConfiguration.makeClientConfiguration()
            config.certificateVerification = .none
            tls = .prefer(config)
        }
        var configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: components.percentEncodedUser?.removingPercentEncoding ?? "postgres",
            password: components.percentEncodedPassword?.removingPercentEncoding,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
        if let schema = try Self.schema(from: url) {
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        configuration.options.maximumConnections = try Self.integer("pool_size", in: components, range: 1...500) ?? 20
        configuration.options.connectTimeout = .seconds(Int64(try Self.integer("connect_timeout", in: components, range: 1...120) ?? 5))
        return configuration
    }

    /// A whole-number query parameter of the URL (`pool_size`, `connect_timeout`), checked.
    static func integer(_ name: String, in components: URLComponents, range: ClosedRange<Int>) throws -> Int? {
        guard let text = components.queryItems?.first(where: { $0.name == name })?.value else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw GatehouseError.internalError(
                cause: "GATEHOUSE_DATABASE_URL: \(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return value
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await timeouts.bounded(client) { connection in
            try await body(GuardedPostgresDatabase(connection))
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await timeouts.bounded(client) { connection in try await Self.transaction(connection, body) }
    }

    /// Migrations may wait for another instance's migration and may run long: no client-side bound,
    /// and no server-side statement timeout for this transaction.
    func migrationWrite<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await Self.transaction(connection) { db in
                try await db.raw("SET LOCAL statement_timeout = 0").run()
                return try await body(db)
            }
        }
    }

    private static func transaction<T: Sendable>(
        _ connection: PostgresConnection,
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let db = GuardedPostgresDatabase(connection)
        try await db.raw("BEGIN").run()
        do {
            let result = try await body(db)
            try await db.raw("COMMIT").run()
            return result
        } catch {
            // On a closed connection there is nothing to roll back: the server already has.
            if !connection.isClosed { try? await db.raw("ROLLBACK").run() }
            throw error
        }
    }

    /// `NOTIFY channel, payload` on a pooled connection, within the store's time bounds.
    func notify(channel: String, payload: String) async throws {
        try await timeouts.bounded(client) { connection in
            _ = try await GuardedPostgresDatabase(connection).raw("SELECT pg_notify(\(bind: channel), \(bind: payload))").all()
        }
    }

    func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }

    func isUnavailable(_ error: any Error) -> Bool {
        if error is PostgresTimeouts.Expired || error is GuardedPostgresDatabase.Closed { return true }
        guard let error = error as? PSQLError else {
            // The pool's own errors (lease timeouts, shut down) and NIO's connect failures.
            let type = String(describing: Swift.type(of: error))
            return type.contains("ConnectionPool") || type.contains("IOError") || type.contains("ChannelError")
                || type.contains("NIOConnectionError")
        }
        if let state = error.serverInfo?[.sqlState] {
            // 08: connection exceptions, 53: insufficient resources, 57P: operator intervention (shutdown),
            // 57014: cancelled by the statement timeout.
            return state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P") || state == "57014"
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
            .failedToAddSSLHandler, .sslUnsupported:
            return true
        default:
            return false
        }
    }

    func prepareForMigration() async throws {
        guard let schema else { return }
        // Under the migration lock: two instances creating the schema at once would otherwise race on the
        // catalog (one fails with a unique violation). The name was checked to be a plain identifier.
        try await migrationWrite { db in
            try await self.lockForMigration(db)
            try await db.raw("CREATE SCHEMA IF NOT EXISTS \(unsafeRaw: schema)").run()
        }
    }

    func lockForMigration(_ db: any SQLDatabase) async throws {
        // A transaction-scoped advisory lock: concurrent `migrate` runs on several instances take turns.
        try await db.raw("SELECT pg_advisory_xact_lock(7226918350129)").run()
    }

    func close() async throws {}
}

/// Runs the Postgres client's connection pool inside the app's service group.
struct PostgresClientService: Service {
    let client: PostgresClient
    func run() async throws { await client.run() }
}
