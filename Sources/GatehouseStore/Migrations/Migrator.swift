import Foundation
import Logging
import SQLKit

/// Applies pending migrations, each in its own transaction, recording them in `gh_schema_migrations`.
struct Migrator: Sendable {
    let backend: any SQLBackend
    let migrations: [Migration]

    init(backend: any SQLBackend, migrations: [Migration] = Migration.all) {
        self.backend = backend
        self.migrations = migrations
    }

    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS gh_schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at BIGINT NOT NULL
        )
        """

    /// Versions already applied.
    func appliedVersions() async throws -> Set<Int> {
        try await backend.prepareForMigration()
        let backend = self.backend
        return try await backend.migrationWrite { db in
            // `CREATE TABLE IF NOT EXISTS` is not safe against a concurrent twin on PostgreSQL (both see
            // no table, one fails on the catalog's unique index): instances starting together take turns.
            try await backend.lockForMigration(db)
            try await db.raw(SQLQueryString(Self.bookkeeping)).run()
            let rows = try await db.raw("SELECT version FROM gh_schema_migrations").all()
            return Set(try rows.map { try $0.decode(column: "version", as: Int.self) })
        }
    }

    func pending() async throws -> [Migration] {
        let applied = try await appliedVersions()
        return migrations.filter { !applied.contains($0.version) }
    }

    /// Applies what is pending; returns the migrations it applied.
    @discardableResult
    func migrate(logger: Logger) async throws -> [Migration] {
        _ = try await appliedVersions()
        var applied: [Migration] = []
        for migration in migrations {
            let backend = self.backend
            let didApply = try await backend.migrationWrite { db in
                try await backend.lockForMigration(db)
                let done = try await db.raw("SELECT version FROM gh_schema_migrations WHERE version = \(bind: migration.version)").first()
                if done != nil { return false }
                for statement in backend.name == "postgres" ? migration.postgres : migration.sqlite {
                    try await db.raw(SQLQueryString(statement)).run()
                }
                let now = Int64(Date().timeIntervalSince1970)
                try await db.raw(
                    "INSERT INTO gh_schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now))"
                ).run()
                return true
            }
            if didApply {
                logger.info(
                    "applied migration",
                    metadata: ["migration.version": .stringConvertible(migration.version), "migration.name": .string(migration.name)]
                )
                applied.append(migration)
            }
        }
        return applied
    }
}
