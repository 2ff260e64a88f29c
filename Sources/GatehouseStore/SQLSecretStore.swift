import Foundation
import GatehouseCore
import SQLKit

/// The privileged part of the store: sealed signing keys and other sealed server secrets (kept in
/// `gh_settings` under `secret:<name>`).
struct SQLSecretStore: SecretStore {
    let store: SQLStore

    func insertSecretIfAbsent(_ name: String, sealed: String) async throws -> String {
        let key = "secret:" + name
        return try await store.writeSQL { db in
            try await db.raw("INSERT INTO gh_settings (key, value) VALUES (\(bind: key), \(bind: sealed)) ON CONFLICT (key) DO NOTHING").run()
            guard let row = try await db.raw("SELECT value FROM gh_settings WHERE key = \(bind: key)").first() else {
                throw GatehouseError.internalError(cause: "secret vanished right after insert")
            }
            return try row.decode(column: "value", as: String.self)
        }
    }

    func signingKeys() async throws -> [StoredSigningKey] {
        try await store.readSQL { db in
            try await db.raw("SELECT kid, use, alg, sealed_private_key, created_at, retired_at, expires_at FROM gh_signing_keys ORDER BY created_at")
                .all().map(Self.decode)
        }
    }

    func addSigningKey(_ key: StoredSigningKey, retirePreviousAt: Date, expirePreviousAt: Date) async throws {
        try await store.writeSQL { db in
            try await db.raw(
                """
                UPDATE gh_signing_keys SET retired_at = \(bind: retirePreviousAt.epochSeconds), expires_at = \(bind: expirePreviousAt.epochSeconds)
                WHERE use = \(bind: key.use) AND retired_at IS NULL
                """
            ).run()
            try await Self.insert(key, into: db, ignoringConflict: false)
        }
    }

    func addInitialSigningKey(_ key: StoredSigningKey) async throws -> StoredSigningKey {
        try await store.writeSQL { db in
            try await Self.insert(key, into: db, ignoringConflict: true)
            return try await Self.activeKey(use: key.use, in: db)
        }
    }

    func switchSigningKey(_ key: StoredSigningKey, retirePreviousAt: Date, expirePreviousAt: Date) async throws -> StoredSigningKey {
        try await store.writeSQL { db in
            // Only a key of another algorithm is retired. On PostgreSQL a racing instance's UPDATE waits
            // for ours and then skips the row we retired; its insert then meets our new active key in the
            // partial unique index and does nothing, so one switch happens and both read the same key.
            try await db.raw(
                """
                UPDATE gh_signing_keys SET retired_at = \(bind: retirePreviousAt.epochSeconds), expires_at = \(bind: expirePreviousAt.epochSeconds)
                WHERE use = \(bind: key.use) AND retired_at IS NULL AND alg <> \(bind: key.algorithm)
                """
            ).run()
            try await Self.insert(key, into: db, ignoringConflict: true)
            return try await Self.activeKey(use: key.use, in: db)
        }
    }

    func deleteExpiredSigningKeys(now: Date) async throws {
        try await store.writeSQL { db in
            try await db.raw("DELETE FROM gh_signing_keys WHERE expires_at IS NOT NULL AND expires_at < \(bind: now.epochSeconds)").run()
        }
    }

    /// The active key of `use`, which an insert just made or found (whichever instance won).
    static func activeKey(use: String, in db: any SQLDatabase) async throws -> StoredSigningKey {
        guard
            let row = try await db.raw(
                """
                SELECT kid, use, alg, sealed_private_key, created_at, retired_at, expires_at FROM gh_signing_keys
                WHERE use = \(bind: use) AND retired_at IS NULL
                """
            ).first()
        else { throw GatehouseError.internalError(cause: "no active \(use) signing key after the insert") }
        return try Self.decode(row)
    }

    static func insert(_ key: StoredSigningKey, into db: any SQLDatabase, ignoringConflict: Bool) async throws {
        let conflict: SQLQueryString = ignoringConflict ? " ON CONFLICT (use) WHERE retired_at IS NULL DO NOTHING" : ""
        try await db.raw(
            """
            INSERT INTO gh_signing_keys (kid, use, alg, sealed_private_key, created_at, retired_at, expires_at)
            VALUES (\(bind: key.kid), \(bind: key.use), \(bind: key.algorithm), \(bind: key.sealedPrivateKey), \(bind: key.createdAt.epochSeconds),
                    \(bind: key.retiredAt?.epochSeconds), \(bind: key.expiresAt?.epochSeconds))\(conflict)
            """
        ).run()
    }

    static func decode(_ row: any SQLRow) throws -> StoredSigningKey {
        StoredSigningKey(
            kid: try row.string("kid"),
            use: try row.string("use"),
            sealedPrivateKey: try row.string("sealed_private_key"),
            createdAt: try row.date("created_at"),
            retiredAt: try row.optionalDate("retired_at"),
            expiresAt: try row.optionalDate("expires_at"),
            algorithm: try row.string("alg")
        )
    }
}
