import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// How the delivery service works through the queue.
public struct DeliverySettings: Sendable, Equatable {
    /// Attempts before a message that keeps failing transiently is dead-lettered
    /// (`GATEHOUSE_MAIL_MAX_ATTEMPTS`, default 10).
    public var maxAttempts = 10
    /// The first retry's delay; each later one doubles, up to ``retryMaxDelay``
    /// (`GATEHOUSE_MAIL_RETRY_BASE`, seconds, default 30).
    public var retryBaseDelay: TimeInterval = 30
    /// The longest delay between two attempts (one hour).
    public var retryMaxDelay: TimeInterval = 3600
    /// How long a claimed message is reserved for its sender; after that another instance (or this one,
    /// after a restart) may send it again. Longer than a transport's worst case (connect, replies).
    public var lease: TimeInterval = 300
    /// How often the queue is read without a wake-up (messages queued by other instances, retries).
    public var pollInterval: TimeInterval = 5
    /// How long a pass waits after a wake-up before it claims anything: the request that queued the
    /// message (or a decoy) has answered by then, so delivery work (decrypting, rendering, sending)
    /// never competes with that answer and a registered address answers as fast as an unknown one.
    public var wakeUpDelay: TimeInterval = 0.05
    /// Messages sent at once by one instance.
    public var concurrency = 4
    /// How long sent, dead and decoy rows stay (`GATEHOUSE_MAIL_RETENTION`, seconds, default 7 days);
    /// their bodies are gone already.
    public var retention: TimeInterval = 7 * 86_400

    /// The defaults.
    public init() {}

    /// The delay before attempt `attempts + 1`, after `attempts` failures: the base doubled per
    /// failure, capped, with up to 20% random jitter so instances do not retry in step.
    /// - Parameters:
    ///   - attempts: Failures so far (at least 1).
    ///   - jitter: A value in 0..<1.
    /// - Returns: The delay in seconds.
    public func retryDelay(afterAttempts attempts: Int, jitter: Double) -> TimeInterval {
        let exponent = min(max(attempts - 1, 0), 30)
        let delay = min(retryBaseDelay * pow(2, Double(exponent)), retryMaxDelay)
        return delay * (1 + 0.2 * jitter)
    }
}
