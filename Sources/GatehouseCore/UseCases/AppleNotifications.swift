import Foundation
import Logging

/// Apple's server-to-server notifications (`POST /auth/apple/notifications`): verifies the signed
/// payload (``AppleNotificationVerifier``) and has the strategy apply it once; `account-delete`
/// deletes the account as `DELETE /me` does (``Accounts/delete(userID:logger:)``). Forged, stale,
/// replayed or unknown-user notifications change nothing, and the caller answers all alike (Apple
/// retries on anything but a 2xx); the reason goes to the log.
public struct AppleNotifications: Sendable {
    let verifier: AppleNotificationVerifier
    let strategy: (any AppleNotificationStrategy)?
    let accounts: Accounts
    let domainEvents: DomainEvents

    /// Creates the use case.
    /// - Parameters:
    ///   - verifier: Checks the payload.
    ///   - strategy: Applies it; `nil` (Cognito) only logs.
    ///   - accounts: Deletes accounts.
    ///   - domainEvents: Where changes are published after their commit.
    public init(verifier: AppleNotificationVerifier, strategy: (any AppleNotificationStrategy)?, accounts: Accounts, domainEvents: DomainEvents) {
        self.verifier = verifier
        self.strategy = strategy
        self.accounts = accounts
        self.domainEvents = domainEvents
    }

    /// Receives one notification. Never throws: every outcome is logged and answered alike.
    /// - Parameters:
    ///   - payload: The JWS Apple sent, or `nil` when the body had none.
    ///   - logger: The request's logger.
    /// - Returns: Whether the notification was verified and had an effect (for tests and metrics; never the answer).
    @discardableResult
    public func receive(payload: String?, logger: Logger) async -> Bool {
        guard let payload else {
            logger.notice("Apple notification ignored", metadata: ["reason": "no payload"])
            return false
        }
        do {
            let notification = try await verifier.verify(payload)
            guard let strategy else {
                logger.notice("Apple notification ignored", metadata: ["reason": "the identity provider keeps Apple's users"])
                return false
            }
            return try await AuditOrigin.$current.withValue(.apple) {
                if notification.kind == .accountDelete {
                    guard let userID = try await strategy.userID(appleSubject: notification.subject) else {
                        logger.notice("Apple notification ignored", metadata: ["reason": "unknown Apple user"])
                        return false
                    }
                    try await accounts.delete(userID: userID, logger: logger)
                    return true
                }
                let changed = try await strategy.handleAppleNotification(notification, logger: logger)
                guard !changed.isEmpty else {
                    logger.notice("Apple notification ignored", metadata: ["reason": "already handled or unknown Apple user"])
                    return false
                }
                domainEvents.publish(changed)
                return true
            }
        } catch let error as GatehouseError {
            logger.notice("Apple notification ignored", metadata: ["reason": .string(error.cause ?? error.message)])
        } catch {
            logger.error("Apple notification failed", metadata: ["error": .string(String(describing: error))])
        }
        return false
    }
}
