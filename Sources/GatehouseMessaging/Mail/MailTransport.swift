import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Sends rendered messages: the development outbox, SMTP or Amazon SES (named `outbox`, `smtp`,
/// `ses`). The mail delivery service calls it in the background, never on a request's path.
public protocol MailTransport: MessageTransport {
    /// Sends one message.
    /// - Parameter mail: The message, rendered, with its envelope.
    /// - Throws: ``DeliveryError``: `transient` (a 4xx reply, a timeout, a dropped connection:
    ///   retried with back-off) or `permanent` (a 5xx reply: dead-lettered).
    func send(_ mail: OutgoingMail) async throws
}
