import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    func insertSession(_ session: SessionRecord) async throws {
        try await insert(
            """
            INSERT INTO gh_sessions (id, user_id, method, auth_time, created_at, revoked_at, revoked_reason, user_agent, client_address,
                                     refreshed_at)
            VALUES (\(bind: session.id), \(bind: session.userID), \(bind: session.method), \(bind: session.authTime.epochSeconds),
                    \(bind: session.createdAt.epochSeconds), \(bind: session.revokedAt?.epochSeconds), \(bind: session.revokedReason),
                    \(bind: session.userAgent), \(bind: session.clientAddress), \(bind: session.lastRefreshedAt?.epochSeconds))
            """,
            constraint: "session id"
        )
    }

    func session(id: String) async throws -> SessionRecord? {
        try await first("SELECT \(unsafeRaw: Self.sessionColumns) FROM gh_sessions WHERE id = \(bind: id)").map(Self.decodeSession)
    }

    static let sessionColumns = "id, user_id, method, auth_time, created_at, revoked_at, revoked_reason, user_agent, client_address, refreshed_at"

    static func decodeSession(_ row: any SQLRow) throws -> SessionRecord {
        SessionRecord(
            id: try row.string("id"),
            userID: try row.string("user_id"),
            method: try row.string("method"),
            authTime: try row.date("auth_time"),
            createdAt: try row.date("created_at"),
            revokedAt: try row.optionalDate("revoked_at"),
            revokedReason: try row.optionalString("revoked_reason"),
            userAgent: try row.optionalString("user_agent"),
            clientAddress: try row.optionalString("client_address"),
            lastRefreshedAt: try row.optionalDate("refreshed_at")
        )
    }

    func activeSessions(userID: String) async throws -> [SessionRecord] {
        try await all(
            """
            SELECT \(unsafeRaw: Self.sessionColumns) FROM gh_sessions
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL ORDER BY created_at, id
            """
        ).map(Self.decodeSession)
    }

    func recordRefresh(sessionID: String, at: Date, userAgent: String?, clientAddress: String?) async throws {
        try await db.raw(
            """
            UPDATE gh_sessions SET refreshed_at = \(bind: at.epochSeconds), user_agent = COALESCE(\(bind: userAgent), user_agent),
                client_address = COALESCE(\(bind: clientAddress), client_address)
            WHERE id = \(bind: sessionID)
            """
        ).run()
    }

    func revokeSession(id: String, at: Date, reason: SessionRecord.EndReason) async throws -> Bool {
        try await first(
            """
            UPDATE gh_sessions SET revoked_at = \(bind: at.epochSeconds), revoked_reason = \(bind: reason.rawValue)
            WHERE id = \(bind: id) AND revoked_at IS NULL RETURNING id
            """
        ) != nil
    }

    func revokeSessions(userID: String, except: String?, at: Date, reason: SessionRecord.EndReason) async throws -> [String] {
        let query: SQLQueryString
        if let except {
            query = """
                UPDATE gh_sessions SET revoked_at = \(bind: at.epochSeconds), revoked_reason = \(bind: reason.rawValue)
                WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND id <> \(bind: except) RETURNING id
                """
        } else {
            query = """
                UPDATE gh_sessions SET revoked_at = \(bind: at.epochSeconds), revoked_reason = \(bind: reason.rawValue)
                WHERE user_id = \(bind: userID) AND revoked_at IS NULL RETURNING id
                """
        }
        return try await all(query).map { try $0.string("id") }
    }

    func activeSessionIDs(userID: String) async throws -> [String] {
        try await all("SELECT id FROM gh_sessions WHERE user_id = \(bind: userID) AND revoked_at IS NULL").map { try $0.string("id") }
    }

    func deleteSessions(userID: String) async throws {
        try await db.raw("DELETE FROM gh_refresh_tokens WHERE user_id = \(bind: userID)").run()
        try await db.raw("DELETE FROM gh_sessions WHERE user_id = \(bind: userID)").run()
    }

    func insertRefreshToken(_ token: RefreshTokenRecord) async throws {
        try await insert(
            """
            INSERT INTO gh_refresh_tokens (token_hash, session_id, user_id, created_at, expires_at, rotated_at, successor_hash)
            VALUES (\(bind: token.tokenHash), \(bind: token.sessionID), \(bind: token.userID), \(bind: token.createdAt.epochSeconds),
                    \(bind: token.expiresAt.epochSeconds), \(bind: token.rotatedAt?.epochSeconds), \(bind: token.successorHash))
            """,
            constraint: "refresh token"
        )
    }

    func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        try await first(
            """
            SELECT token_hash, session_id, user_id, created_at, expires_at, rotated_at, successor_hash
            FROM gh_refresh_tokens WHERE token_hash = \(bind: hash)
            """
        ).map { row in
            RefreshTokenRecord(
                tokenHash: try row.string("token_hash"),
                sessionID: try row.string("session_id"),
                userID: try row.string("user_id"),
                createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at"),
                rotatedAt: try row.optionalDate("rotated_at"),
                successorHash: try row.optionalString("successor_hash")
            )
        }
    }

    func markRefreshTokenRotated(hash: String, successorHash: String, at: Date) async throws -> Bool {
        try await first(
            """
            UPDATE gh_refresh_tokens SET rotated_at = \(bind: at.epochSeconds), successor_hash = \(bind: successorHash)
            WHERE token_hash = \(bind: hash) AND rotated_at IS NULL RETURNING token_hash
            """
        ) != nil
    }
}
