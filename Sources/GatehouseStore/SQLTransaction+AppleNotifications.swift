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

    func setEmailForwarding(appleSubject: String, forwarding: Bool, isPrivateEmail: Bool?, eventTime: Date) async throws -> Bool {
        try await first(
            """
            UPDATE gh_identities SET email_forwarding = \(bind: forwarding), email_forwarding_at = \(bind: eventTime.epochSeconds),
                   is_private_email = COALESCE(\(bind: isPrivateEmail), is_private_email)
            WHERE provider = 'apple' AND provider_subject = \(bind: appleSubject)
              AND (email_forwarding_at IS NULL OR email_forwarding_at <= \(bind: eventTime.epochSeconds))
            RETURNING provider_subject
            """
        ) != nil
    }

    /// The literal `FALSE` matches the partial index `gh_identities_forwarding_off` (a bound value would not).
    func isRelayForwardingOff(address: String) async throws -> Bool {
        try await first(
            """
            SELECT provider_subject FROM gh_identities
            WHERE email_forwarding = FALSE AND provider = 'apple' AND lower(email) = lower(\(bind: address))
            LIMIT 1
            """
        ) != nil
    }
}
