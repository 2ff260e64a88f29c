import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Sends text messages: the development outbox or Amazon SNS (`GATEHOUSE_SMS`; named `outbox`, `sns`).
public protocol SMSTransport: MessageTransport {
    /// Sends one message.
    /// - Parameter sms: The message and its E.164 recipient.
    /// - Throws: ``DeliveryError``: `transient` (throttling, a 5xx answer, a timeout, a dropped
    ///   connection: worth retrying later) or `permanent` (a refused number or message, refused credentials).
    func send(_ sms: OutgoingSMS) async throws
}
