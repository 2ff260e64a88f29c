import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// What the delivery service reports, for metrics.
public protocol DeliveryObserver: Sendable {
    /// Messages waiting and dead-lettered, after each pass.
    func queueDepth(queued: Int, dead: Int)
    /// A message was delivered.
    func delivered(kind: String)
    /// An attempt failed and the message will be retried.
    func retried(kind: String)
    /// A message was given up on.
    func deadLettered(kind: String)
}

/// Reports nothing.
public struct NoDeliveryObserver: DeliveryObserver {
    /// The observer.
    public init() {}
    /// Ignores the depth.
    /// - Parameters:
    ///   - queued: Waiting.
    ///   - dead: Dead-lettered.
    public func queueDepth(queued: Int, dead: Int) {}
    /// Ignores it.
    /// - Parameter kind: The message kind.
    public func delivered(kind: String) {}
    /// Ignores it.
    /// - Parameter kind: The message kind.
    public func retried(kind: String) {}
    /// Ignores it.
    /// - Parameter kind: The message kind.
    public func deadLettered(kind: String) {}
}
