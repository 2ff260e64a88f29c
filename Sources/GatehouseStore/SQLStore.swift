import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging
import SQLKit
import ServiceLifecycle

/// The store over SQL: one implementation for SQLite and PostgreSQL (SQLKit renders the bind
/// placeholders of each). Every query is parameterised.
///
/// Made without I/O (``init(location:logger:)``), as `PostgresClient` is: ``service`` runs in the
/// service group from the start (PostgreSQL's connection pool; SQLite's checkpointer once the file is
/// open), and ``open()`` opens it at start-up. A transaction before then is `unavailable`.
public final class SQLStore: GatehouseStore {
    private let opened: SetOnce<any SQLBackend>
    private let location: StoreLocation
    /// Hands SQLite's checkpointer to ``service`` once the file is open.
    private let checkpointers: AsyncStream<SQLiteCheckpointer>.Continuation
    private let checkpointerStream: AsyncStream<SQLiteCheckpointer>
    private let postgres: PostgresBackend?
    private let closed = LockedBox(false)
    let logger: Logger
    public let backendName: String
    public var secrets: any SecretStore { SQLSecretStore(store: self) }

    /// The open backend; the store's own helpers run only after ``open()``.
    var backend: any SQLBackend { opened.value }

    /// A store at `location`, not yet open.
    /// - Parameters:
    ///   - location: SQLite's file or PostgreSQL's URL.
    ///   - logger: Where the store logs.
    /// - Throws: If the PostgreSQL URL cannot be turned into a client configuration.
    public init(location: StoreLocation, logger: Logger) throws {
        self.location = location
        self.logger = logger
        (checkpointerStream, checkpointers) = AsyncStream.makeStream(of: SQLiteCheckpointer.self, bufferingPolicy: .bufferingNewest(1))
        opened = SetOnce("the store")
        switch location {
        case .sqlite:
            postgres = nil
            backendName = "sqlite"
        case .postgres(let url):
            let backend = try PostgresBackend(url: url, logger: logger)
            postgres = backend
            backendName = backend.name
        }
    }

    /// Opens the store: SQLite creates or opens its file; PostgreSQL's pool connects in ``service``.
    /// - Throws: If SQLite's file cannot be opened.
    public func open() async throws {
        if opened.valueIfSet != nil { return }
        switch location {
        case .sqlite(let path):
            let backend = try await SQLiteBackend.open(path: path, logger: logger)
            opened.set(backend)
            checkpointers.yield(backend.checkpointer)
            checkpointers.finish()
        case .postgres:
            if let postgres { opened.set(postgres) }
        }
    }

    /// What must run in the service group for as long as the store is used, placed first so that it
    /// stops last: PostgreSQL's connection pool (from the start: queries wait for it), or SQLite's
    /// checkpointer (once ``open()`` opened the file), which closes the store on graceful shutdown.
    public var service: any Service {
        if let postgres { return PostgresClientService(client: postgres.client) }
        return SQLiteCheckpointService(checkpointers: checkpointerStream, close: { try await self.close() })
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        let backend = try openBackend()
        return try await translatingErrors {
            try await backend.read { db in try await body(SQLTransaction(db: db, backend: backend)) }
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        let backend = try openBackend()
        return try await translatingErrors {
            try await backend.write { db in try await body(SQLTransaction(db: db, backend: backend)) }
        }
    }

    private func openBackend() throws -> any SQLBackend {
        guard let backend = opened.valueIfSet else { throw GatehouseError.unavailable(cause: "the store is not open yet") }
        return backend
    }

    /// Raw access for the parts of this module that are not transactions of the core (secrets, purge).
    func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let backend = try openBackend()
        return try await translatingErrors { try await backend.write(body) }
    }

    func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let backend = try openBackend()
        return try await translatingErrors { try await backend.read(body) }
    }

    /// Uniqueness violations become ``StoreConflict``; a database that cannot be reached becomes
    /// `unavailable` (503); everything else propagates (and becomes an opaque 500 at the edge).
    private func translatingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as GatehouseError {
            throw error
        } catch let error as StoreConflict {
            throw error
        } catch {
            if backend.isUniqueViolation(error) { throw StoreConflict(constraint: "unique") }
            if backend.isUnavailable(error) { throw GatehouseError.unavailable(cause: "\(backend.name): \(error)") }
            throw error
        }
    }

    public func ping() async throws {
        _ = try await readSQL { db in try await db.raw("SELECT 1 AS ok").first() }
    }

    public func purgeExpired(now: Date) async throws -> Int {
        let t = now.epochSeconds
        let dayAgo = t - 86_400
        return try await writeSQL { db in
            var removed = 0
            func count(_ query: SQLQueryString) async throws {
                removed += try await db.raw(query).all().count
            }
            try await count("DELETE FROM gh_codes WHERE expires_at < \(bind: dayAgo) RETURNING user_id")
            try await count("DELETE FROM gh_srp_challenges WHERE expires_at < \(bind: t) RETURNING id")
            try await count("DELETE FROM gh_refresh_tokens WHERE expires_at < \(bind: t) RETURNING token_hash")
            try await count(
                """
                DELETE FROM gh_refresh_tokens WHERE session_id IN
                (SELECT id FROM gh_sessions WHERE revoked_at IS NOT NULL AND revoked_at < \(bind: dayAgo)) RETURNING token_hash
                """
            )
            try await count("DELETE FROM gh_sessions WHERE revoked_at IS NOT NULL AND revoked_at < \(bind: dayAgo) RETURNING id")
            try await count(
                """
                DELETE FROM gh_sessions WHERE created_at < \(bind: dayAgo) AND NOT EXISTS
                (SELECT 1 FROM gh_refresh_tokens r WHERE r.session_id = gh_sessions.id) RETURNING id
                """
            )
            try await count("DELETE FROM gh_leases WHERE expires_at < \(bind: t) RETURNING name")
            try await count("DELETE FROM gh_apple_notifications WHERE expires_at < \(bind: t) RETURNING event_hash")
            // A cut-off older than the longest access-token lifetime (a day) decides nothing any more;
            // deletion tombstones stay.
            try await count("DELETE FROM gh_subject_revocations WHERE deleted_at IS NULL AND revoked_before < \(bind: dayAgo) RETURNING sub")
            // Used web-flow states: once expired, the sealed state is refused on its own.
            try await count("DELETE FROM gh_authorization_states WHERE expires_at < \(bind: t) RETURNING state_hash")
            try await count("DELETE FROM gh_handoff_codes WHERE expires_at < \(bind: t) RETURNING code_hash")
            try await count(
                "DELETE FROM gh_apple_revocations WHERE completed_at IS NOT NULL AND completed_at < \(bind: t - 30 * 86_400) RETURNING id"
            )
            try await count(
                """
                DELETE FROM gh_rate_limits WHERE window_start < \(bind: dayAgo)
                AND (blocked_until_ms IS NULL OR blocked_until_ms < \(bind: t * 1000)) RETURNING bucket
                """
            )
            return removed
        }
    }

    /// Applies pending migrations.
    @discardableResult
    public func migrate(logger: Logger) async throws -> [String] {
        try await Migrator(backend: backend).migrate(logger: logger).map { "\($0.version) \($0.name)" }
    }

    /// Migrations not yet applied.
    public func pendingMigrations() async throws -> [String] {
        try await Migrator(backend: backend).pending().map { "\($0.version) \($0.name)" }
    }

    /// The channel that carries domain events between instances on this database: PostgreSQL's
    /// LISTEN/NOTIFY; nil for SQLite (one process owns the file).
    /// - Parameters:
    ///   - instance: This process's id (its own notifications are ignored).
    ///   - logger: For the channel's lines.
    /// - Returns: The channel, or nil.
    public func eventChannel(instance: String, logger: Logger) -> (any StoreEventChannel)? {
        guard let postgres else { return nil }
        return PostgresEventChannel(backend: postgres, instance: instance, logger: logger)
    }

    /// Tells the running instances about events from a one-off process (`gatehouse keys rotate`):
    /// PostgreSQL's NOTIFY; nothing for SQLite (the server's periodic reload catches up).
    /// - Parameter events: What happened.
    /// - Throws: The database's error.
    public func announce(_ events: [DomainEvent]) async throws {
        guard let postgres else { return }
        let channel = PostgresEventChannel.channelName(schema: postgres.schema)
        for event in events {
            for payload in PostgresEventChannel.payloads(event, instance: "cli") {
                try await postgres.notify(channel: channel, payload: payload)
            }
        }
    }

    /// Closes the store (SQLite checkpoints fully); nothing to do when it never opened or is closed.
    public func close() async throws {
        checkpointers.finish()
        guard
            closed.withLock({ closed in
                defer { closed = true }
                return !closed
            })
        else { return }
        try await opened.valueIfSet?.close()
    }
}
