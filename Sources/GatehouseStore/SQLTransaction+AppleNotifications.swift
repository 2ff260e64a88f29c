import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    func recordAppleNotification(hash: String, type: String, expiresAt: Date, at: Date) async throws -> Bool {
        try await first(
            """
            INSERT INTO gh_apple_notifications (event_hash, event_type, handled_at, expires_at)
            VALUES (\(bind: hash), \(bind: type), \(bind: at.epochSeconds), \(bind: expiresAt.epochSeconds))
            ON CONFLICT (event_hash) DO NOTHING RETURNING event_hash
            """
        ) != nil
    }

    func deleteIdentity(provider: String, subject: String) async throws {
        try await db.raw("DELETE FROM gh_identities WHERE provider = \(bind: provider) AND provider_subject = \(bind: subject)").run()
    }

    func revokeSessions(userID: String, method: String, at: Date, reason: SessionRecord.EndReason) async throws -> [String] {
        try await all(
            """
            UPDATE gh_sessions SET revoked_at = \(bind: at.epochSeconds), revoked_reason = \(bind: reason.rawValue)
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND (method = \(bind: method) OR method LIKE \(bind: method + "+%"))
            RETURNING id
            """
        ).map { try $0.string("id") }
    }
}
