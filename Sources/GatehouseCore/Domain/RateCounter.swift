import Foundation

/// A rate-limit bucket's state as stored: attempts in the current window and any block in force.
public struct RateCounter: Sendable, Equatable {
    public var count: Int
    public var windowStart: Date
    public var blockedUntil: Date?

    public init(count: Int, windowStart: Date, blockedUntil: Date?) {
        self.count = count
        self.windowStart = windowStart
        self.blockedUntil = blockedUntil
    }
}
