import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    static let auditColumns = "id, at_ms, event, user_id, actor, detail, client_address, user_agent, request_id"

    func appendAudit(_ entry: AuditEntry) async throws {
        try await db.raw(
            """
            INSERT INTO gh_audit_log (\(unsafeRaw: Self.auditColumns))
            VALUES (\(bind: entry.id), \(bind: entry.at.epochMilliseconds), \(bind: entry.event.rawValue), \(bind: entry.userID),
                    \(bind: entry.actor), \(bind: entry.detail), \(bind: entry.clientAddress), \(bind: entry.userAgent), \(bind: entry.requestID))
            """
        ).run()
    }

    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] {
        var sql: SQLQueryString = "SELECT \(unsafeRaw: Self.auditColumns) FROM gh_audit_log WHERE 1 = 1"
        if let user = query.userID { sql += " AND user_id = \(bind: user)" }
        if let event = query.event { sql += " AND event = \(bind: event.rawValue)" }
        if let since = query.since { sql += " AND at_ms >= \(bind: since.epochMilliseconds)" }
        if let until = query.until { sql += " AND at_ms < \(bind: until.epochMilliseconds)" }
        if let before = query.before { sql += " AND id < \(bind: before)" }
        sql += " ORDER BY id DESC LIMIT \(bind: query.limit)"
        return try await all(sql).map { row in
            AuditEntry(
                id: try row.string("id"),
                at: Date(epochMilliseconds: try row.decode(column: "at_ms", as: Int64.self)),
                event: AuditEvent(rawValue: try row.string("event")) ?? .adminRead,
                userID: try row.optionalString("user_id"),
                actor: try row.string("actor"),
                detail: try row.optionalString("detail"),
                clientAddress: try row.optionalString("client_address"),
                userAgent: try row.optionalString("user_agent"),
                requestID: try row.optionalString("request_id")
            )
        }
    }

    func pruneAudit(before cutoff: Date) async throws -> Int {
        try await db.raw("DELETE FROM gh_audit_log WHERE at_ms < \(bind: cutoff.epochMilliseconds) RETURNING id").all().count
    }

    // MARK: Admin keys

    static let adminKeyColumns = "id, name, key_hash, created_at, last_used_at, revoked_at"

    func insertAdminKey(_ key: AdminKeyRecord) async throws {
        try await insert(
            """
            INSERT INTO gh_admin_keys (\(unsafeRaw: Self.adminKeyColumns))
            VALUES (\(bind: key.id), \(bind: key.name), \(bind: key.keyHash), \(bind: key.createdAt.epochSeconds),
                    \(bind: key.lastUsedAt?.epochSeconds), \(bind: key.revokedAt?.epochSeconds))
            """,
            constraint: "admin key name"
        )
    }

    func adminKey(hash: String) async throws -> AdminKeyRecord? {
        try await first("SELECT \(unsafeRaw: Self.adminKeyColumns) FROM gh_admin_keys WHERE key_hash = \(bind: hash)").map(Self.decodeAdminKey)
    }

    func adminKeys() async throws -> [AdminKeyRecord] {
        try await all("SELECT \(unsafeRaw: Self.adminKeyColumns) FROM gh_admin_keys ORDER BY created_at, id").map(Self.decodeAdminKey)
    }

    func revokeAdminKey(name: String, at: Date) async throws -> Bool {
        let rows = try await db.raw(
            "UPDATE gh_admin_keys SET revoked_at = \(bind: at.epochSeconds) WHERE name = \(bind: name) AND revoked_at IS NULL RETURNING id"
        ).all()
        return !rows.isEmpty
    }

    func touchAdminKey(id: String, at: Date) async throws {
        try await db.raw("UPDATE gh_admin_keys SET last_used_at = \(bind: at.epochSeconds) WHERE id = \(bind: id)").run()
    }

    static func decodeAdminKey(_ row: any SQLRow) throws -> AdminKeyRecord {
        AdminKeyRecord(
            id: try row.string("id"),
            name: try row.string("name"),
            keyHash: try row.string("key_hash"),
            createdAt: try row.date("created_at"),
            lastUsedAt: try row.optionalDate("last_used_at"),
            revokedAt: try row.optionalDate("revoked_at")
        )
    }
}
