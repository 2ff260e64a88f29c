import Foundation

/// What every transport of the delivery queue does besides sending (``MailTransport``,
/// ``SMSTransport``): it has a name, checks itself for `gatehouse doctor`, and shuts down. Calls may run
/// concurrently; a transport only sends and classifies failures, retries are its caller's.
public protocol MessageTransport: Sendable {
    /// `outbox`, `smtp`, `ses` or `sns`: for logs, metrics and `gatehouse doctor`.
    var name: String { get }

    /// Checks the transport for `gatehouse doctor`: connects, negotiates TLS and authenticates (SMTP),
    /// makes a harmless signed call (SES; SNS `GetSMSAttributes`), or finds the outbox writable. Sends
    /// nothing.
    /// - Returns: One line per step that passed, for the operator.
    /// - Throws: ``DeliveryError`` naming the step that failed.
    func check() async throws -> [String]

    /// Closes pooled connections and whatever else the transport holds; called once, at shutdown.
    func shutdown() async
}
