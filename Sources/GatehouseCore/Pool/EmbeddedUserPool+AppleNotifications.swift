import Foundation
import Logging

extension EmbeddedUserPool: AppleNotificationStrategy {
    /// The account an Apple user id belongs to (``AppleNotificationStrategy``).
    /// - Parameter appleSubject: The Apple user id.
    /// - Returns: The user's sub, or `nil`.
    /// - Throws: A store error.
    public func userID(appleSubject: String) async throws -> String? {
        try await store.read { try await $0.identity(provider: VerifiedIdentity.Provider.apple.rawValue, subject: appleSubject)?.userID }
    }

    /// Handles a relay-email change or a revoked consent once (``AppleNotificationStrategy``). An email
    /// change sets the Apple identity's forwarding flag (and its `is_private_email` when Apple sent it),
    /// unless a notification with a later event time already did (then nothing is recorded), and is
    /// audited. A revoked consent ends the user's Apple sessions, unlinks the Apple ID,
    /// forgets its Apple tokens (Apple revoked them), and — when the account has no other way in (no
    /// password, passkey or other identity) — disables it, in one transaction.
    /// - Parameters:
    ///   - notification: The verified notification.
    ///   - logger: The request's logger.
    /// - Returns: What changed (empty for an event already handled or an unknown Apple ID).
    /// - Throws: A store error (nothing changed).
    public func handleAppleNotification(_ notification: AppleNotification, logger: Logger) async throws -> [DomainEvent] {
        let (now, origin) = (clock.now(), AuditOrigin.current)
        let provider = VerifiedIdentity.Provider.apple.rawValue
        let expires = now.addingTimeInterval(AppleNotificationVerifier.maxAge + 86_400)
        let (ended, userID): ([String], String?) = try await store.write { tx in
            guard try await tx.recordAppleNotification(hash: notification.eventHash, type: notification.kind.rawValue, expiresAt: expires, at: now),
                let identity = try await tx.identity(provider: provider, subject: notification.subject),
                let user = try await tx.user(id: identity.userID)
            else { return ([], nil) }
            switch notification.kind {
            case .emailDisabled, .emailEnabled:
                let forwarding = notification.kind == .emailEnabled
                guard
                    try await tx.setEmailForwarding(
                        appleSubject: notification.subject,
                        forwarding: forwarding,
                        isPrivateEmail: notification.isPrivateEmail,
                        eventTime: notification.eventTime
                    )
                else { return ([], nil) }  // a notification with a later event time already set it
                let event: AuditEvent = forwarding ? .appleEmailEnabled : .appleEmailDisabled
                let detail = "forwarding=\(forwarding ? "on" : "off")" + (notification.isPrivateEmail.map { "; is_private_email=\($0)" } ?? "")
                try await audit(.make(event, userID: user.id, detail: detail, origin: origin, at: now, random: random), in: tx)
                return ([], user.id)
            case .consentRevoked:
                var ended = try await tx.revokeSessions(userID: user.id, method: provider, at: now, reason: .appleConsentRevoked)
                try await tx.deleteIdentity(provider: provider, subject: notification.subject)
                try await tx.deleteAppleTokens(userID: user.id)
                let others = try await tx.identities(userID: user.id).filter { $0.provider != "password" || user.passwordHash != nil }
                let passkeys = try await tx.passkeys(userID: user.id)
                let wayIn = user.passwordHash != nil || !others.isEmpty || !passkeys.isEmpty
                var detail = "unlinked"
                if !wayIn, user.disabledAt == nil {
                    var disabled = user
                    disabled.disabledAt = now
                    disabled.updatedAt = now
                    try await tx.updateUser(disabled)
                    ended += try await tx.revokeSessions(userID: user.id, except: nil, at: now, reason: .userDisabled)
                    detail = "unlinked; disabled: no other way in"
                }
                try await audit(.make(.appleConsentRevoked, userID: user.id, detail: detail, origin: origin, at: now, random: random), in: tx)
                return (ended, user.id)
            case .accountDelete:
                return ([], nil)  // the use case deletes the account as DELETE /me does
            }
        }
        guard let userID else { return [] }
        logger.info("Apple notification handled", metadata: ["user.sub": .string(userID), "apple.event": .string(notification.kind.rawValue)])
        return ended.isEmpty ? [.profileChanged(sub: userID)] : [.sessionsEnded(ids: ended), .profileChanged(sub: userID)]
    }
}
