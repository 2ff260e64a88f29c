import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Sends text messages: the development outbox or Amazon SNS (`GATEHOUSE_SMS`). Calls may run
/// concurrently; a transport only sends and classifies failures, retries are its caller's.
public protocol SMSTransport: Sendable {
    /// `outbox` or `sns`: for logs, metrics and `gatehouse doctor`.
    var name: String { get }

    /// Sends one message.
    /// - Parameter sms: The message and its E.164 recipient.
    /// - Throws: ``DeliveryError``: `transient` (throttling, a 5xx answer, a timeout, a dropped
    ///   connection: worth retrying later) or `permanent` (a refused number or message, refused credentials).
    func send(_ sms: OutgoingSMS) async throws

    /// Checks the transport for `gatehouse doctor`: the outbox is writable, or a harmless signed call
    /// (SNS `GetSMSAttributes`) succeeds. Sends nothing.
    /// - Returns: One line per step that passed, for the operator.
    /// - Throws: ``DeliveryError`` naming the step that failed.
    func check() async throws -> [String]

    /// Closes what the transport holds; called once, at shutdown.
    func shutdown() async
}
