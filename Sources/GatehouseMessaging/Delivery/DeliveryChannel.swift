import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// One kind of message the durable queue carries — mail or SMS: how a queued request is opened and
/// sent. The ``DeliveryDispatcher`` claims due rows of every channel and hands each to its channel; the
/// retries, the back-off, the dead-lettering and the lease are the dispatcher's, the same for all.
public protocol DeliveryChannel: Sendable {
    /// The queue's `channel` column for this channel's rows: `mail` or `sms`.
    var name: String { get }
    /// The transport's name (`outbox`, `smtp`, `ses`, `sns`), for logs.
    var transportName: String { get }
    /// Opens a queued request (already unsealed).
    /// - Parameters:
    ///   - plaintext: The request as JSON.
    ///   - id: The queue row's id (the message's id).
    /// - Returns: The message, ready to send.
    /// - Throws: When the request cannot be read; the dispatcher dead-letters it.
    func open(_ plaintext: Data, id: String) throws -> QueuedDelivery
    /// Closes the transport's connections (at shutdown, after the last send).
    func shutdown() async
}

/// A queued request opened by its ``DeliveryChannel``.
public struct QueuedDelivery: Sendable {
    /// How long the code the message carries stays valid, if it carries one: a retry after that is
    /// not sent (the user has asked for a new code by then).
    public var codeLifetime: TimeInterval?
    /// Renders and sends the message at the given date; throws ``DeliveryError`` (or any error,
    /// taken as transient).
    public var send: @Sendable (_ date: Date) async throws -> Void

    /// A message ready to send.
    /// - Parameters:
    ///   - codeLifetime: The lifetime of the code it carries, if any.
    ///   - send: Renders and sends it.
    public init(codeLifetime: TimeInterval?, send: @escaping @Sendable (_ date: Date) async throws -> Void) {
        self.codeLifetime = codeLifetime
        self.send = send
    }
}
