import Foundation
import Logging

/// What a strategy does with a verified Apple notification (the embedded pool; with Cognito, Apple's
/// users live in Cognito and notifications are only logged).
public protocol AppleNotificationStrategy: Sendable {
    /// The account an Apple user id belongs to, if any.
    /// - Parameter appleSubject: The Apple user id.
    /// - Returns: The user's sub, or `nil`.
    /// - Throws: A store error.
    func userID(appleSubject: String) async throws -> String?

    /// Handles `email-disabled`, `email-enabled` or `consent-revoked` once (keyed on
    /// ``AppleNotification/eventHash``), audited in the transaction of its change. An event already
    /// handled, or about an Apple ID we do not know, changes nothing.
    /// - Parameters:
    ///   - notification: The verified notification.
    ///   - logger: The request's logger.
    /// - Returns: What changed, for the use case to publish (empty when nothing did).
    /// - Throws: A store error (nothing changed).
    func handleAppleNotification(_ notification: AppleNotification, logger: Logger) async throws -> [DomainEvent]
}
