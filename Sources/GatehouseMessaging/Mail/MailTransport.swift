import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Sends rendered messages: the development outbox, SMTP or Amazon SES. The mail delivery service
/// calls it in the background, never on a request's path; calls may run concurrently.
public protocol MailTransport: Sendable {
    /// `outbox`, `smtp` or `ses`: for logs, metrics and `gatehouse doctor`.
    var name: String { get }

    /// Sends one message.
    /// - Parameter mail: The message, rendered, with its envelope.
    /// - Throws: ``DeliveryError``: `transient` (a 4xx reply, a timeout, a dropped connection:
    ///   retried with back-off) or `permanent` (a 5xx reply: dead-lettered).
    func send(_ mail: OutgoingMail) async throws

    /// Checks the transport for `gatehouse doctor`: connects, negotiates TLS and authenticates (SMTP),
    /// or makes a harmless signed call (SES). Sends nothing.
    /// - Returns: One line per step that passed, for the operator.
    /// - Throws: ``DeliveryError`` naming the step that failed.
    func check() async throws -> [String]

    /// Closes pooled connections; called once, at shutdown.
    func shutdown() async
}
