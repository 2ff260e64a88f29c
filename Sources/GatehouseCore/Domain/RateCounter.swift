import Foundation

/// A rate-limit bucket's state as stored: attempts in the current window and any block in force.
public struct RateCounter: Sendable, Equatable {
    /// Attempts (failures, or quota uses) counted since ``windowStart``.
    public var count: Int
    /// When the current window began; a window older than its rule's `window` restarts at the next attempt.
    public var windowStart: Date
    /// Until when the bucket refuses every attempt, or `nil` when it is not blocked.
    public var blockedUntil: Date?

    /// A counter as stored.
    /// - Parameters:
    ///   - count: Attempts counted in the window.
    ///   - windowStart: When the window began.
    ///   - blockedUntil: The end of the block in force, if any.
    public init(count: Int, windowStart: Date, blockedUntil: Date?) {
        self.count = count
        self.windowStart = windowStart
        self.blockedUntil = blockedUntil
    }
}
