import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    func upsertAppleToken(_ token: AppleTokenRecord) async throws {
        try await db.raw(
            """
            INSERT INTO gh_apple_tokens (apple_subject, client_id, user_id, sealed_refresh_token, created_at)
            VALUES (\(bind: token.appleSubject), \(bind: token.clientID), \(bind: token.userID), \(bind: token.sealedRefreshToken), \(bind: token.createdAt.epochSeconds))
            ON CONFLICT (apple_subject, client_id) DO UPDATE SET user_id = excluded.user_id,
                sealed_refresh_token = excluded.sealed_refresh_token, created_at = excluded.created_at
            """
        ).run()
    }

    func appleTokens(userID: String) async throws -> [AppleTokenRecord] {
        try await all(
            """
            SELECT apple_subject, client_id, user_id, sealed_refresh_token, created_at FROM gh_apple_tokens
            WHERE user_id = \(bind: userID) ORDER BY created_at
            """
        ).map { row in
            AppleTokenRecord(
                userID: try row.string("user_id"),
                appleSubject: try row.string("apple_subject"),
                clientID: try row.string("client_id"),
                sealedRefreshToken: try row.string("sealed_refresh_token"),
                createdAt: try row.date("created_at")
            )
        }
    }

    func deleteAppleTokens(userID: String) async throws {
        try await db.raw("DELETE FROM gh_apple_tokens WHERE user_id = \(bind: userID)").run()
    }

    // MARK: Revocation queue

    static let revocationColumns = "id, client_id, sealed_refresh_token, created_at, attempts, next_attempt_at, last_error, completed_at"

    func enqueueRevocation(_ r: AppleRevocationRecord) async throws {
        try await db.raw(
            """
            INSERT INTO gh_apple_revocations (id, client_id, sealed_refresh_token, created_at, attempts, next_attempt_at, last_error, completed_at)
            VALUES (\(bind: r.id), \(bind: r.clientID), \(bind: r.sealedRefreshToken), \(bind: r.createdAt.epochSeconds), \(bind: r.attempts),
                    \(bind: r.nextAttemptAt.epochSeconds), \(bind: r.lastError), \(bind: r.completedAt?.epochSeconds))
            """
        ).run()
    }

    func dueRevocations(now: Date, limit: Int) async throws -> [AppleRevocationRecord] {
        try await all(
            """
            SELECT \(unsafeRaw: Self.revocationColumns) FROM gh_apple_revocations
            WHERE completed_at IS NULL AND next_attempt_at <= \(bind: now.epochSeconds) ORDER BY next_attempt_at LIMIT \(bind: limit)
            """
        ).map(Self.decodeRevocation)
    }

    func claimDueRevocations(now: Date, leaseUntil: Date, limit: Int) async throws -> [AppleRevocationRecord] {
        let skipLocked = backend.name == "postgres" ? " FOR UPDATE SKIP LOCKED" : ""
        return try await all(
            """
            UPDATE gh_apple_revocations SET next_attempt_at = \(bind: leaseUntil.epochSeconds)
            WHERE id IN (
                SELECT id FROM gh_apple_revocations WHERE completed_at IS NULL AND next_attempt_at <= \(bind: now.epochSeconds)
                ORDER BY next_attempt_at LIMIT \(bind: limit)\(unsafeRaw: skipLocked)
            )
            RETURNING \(unsafeRaw: Self.revocationColumns)
            """
        ).map(Self.decodeRevocation)
    }

    func revocation(id: String) async throws -> AppleRevocationRecord? {
        try await first("SELECT \(unsafeRaw: Self.revocationColumns) FROM gh_apple_revocations WHERE id = \(bind: id)").map(Self.decodeRevocation)
    }

    func updateRevocation(_ r: AppleRevocationRecord) async throws {
        try await db.raw(
            """
            UPDATE gh_apple_revocations SET attempts = \(bind: r.attempts), next_attempt_at = \(bind: r.nextAttemptAt.epochSeconds),
                last_error = \(bind: r.lastError), completed_at = \(bind: r.completedAt?.epochSeconds),
                sealed_refresh_token = \(bind: r.sealedRefreshToken)
            WHERE id = \(bind: r.id)
            """
        ).run()
    }

    static func decodeRevocation(_ row: any SQLRow) throws -> AppleRevocationRecord {
        AppleRevocationRecord(
            id: try row.string("id"),
            clientID: try row.string("client_id"),
            sealedRefreshToken: try row.string("sealed_refresh_token"),
            createdAt: try row.date("created_at"),
            attempts: try row.int("attempts"),
            nextAttemptAt: try row.date("next_attempt_at"),
            lastError: try row.optionalString("last_error"),
            completedAt: try row.optionalDate("completed_at")
        )
    }

    // MARK: Web flow

    /// `ON CONFLICT DO NOTHING RETURNING`: the row comes back only to the one insert that made it, on
    /// SQLite and PostgreSQL alike (a concurrent PostgreSQL insert of the same key waits for the first
    /// to commit, then does nothing). The `nonce` column is left empty: the nonce lives in the sealed state.
    func recordAuthorizationStateUse(hash: String, codeChallenge: String, expiresAt: Date, at: Date) async throws -> Bool {
        try await first(
            """
            INSERT INTO gh_authorization_states (state_hash, code_challenge, nonce, created_at, expires_at, used_at)
            VALUES (\(bind: hash), \(bind: codeChallenge), '', \(bind: at.epochSeconds), \(bind: expiresAt.epochSeconds), \(bind: at.epochSeconds))
            ON CONFLICT (state_hash) DO NOTHING RETURNING state_hash
            """
        ) != nil
    }

    func insertHandoff(_ handoff: HandoffRecord) async throws {
        try await insert(
            """
            INSERT INTO gh_handoff_codes (code_hash, code_challenge, sealed_tokens, created_at, expires_at)
            VALUES (\(bind: handoff.codeHash), \(bind: handoff.codeChallenge), \(bind: handoff.sealedTokens), \(bind: handoff.createdAt.epochSeconds), \(bind: handoff.expiresAt.epochSeconds))
            """,
            constraint: "hand-off code"
        )
    }

    func consumeHandoff(hash: String, at: Date) async throws -> HandoffRecord? {
        try await first(
            """
            DELETE FROM gh_handoff_codes WHERE code_hash = \(bind: hash) AND used_at IS NULL
            RETURNING code_hash, code_challenge, sealed_tokens, created_at, expires_at
            """
        ).map { row in
            HandoffRecord(
                codeHash: try row.string("code_hash"),
                codeChallenge: try row.string("code_challenge"),
                sealedTokens: try row.string("sealed_tokens"),
                createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at")
            )
        }
    }
}
