import Foundation

/// Where the core reads the time. Expiry, rotation windows, code lifetimes and rate-limit windows all
/// read this, so tests drive time with a test clock instead of sleeping.
public protocol TimeSource: Sendable {
    /// The current time.
    func now() -> Date
}

/// The wall clock.
public struct SystemTimeSource: TimeSource {
    /// Creates the wall clock.
    public init() {}
    /// The system time.
    /// - Returns: `Date()`.
    public func now() -> Date { Date() }
}

extension Date {
    /// Whole seconds since 1970, the form every timestamp we store and sign uses.
    public var epochSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }

    /// Whole milliseconds since 1970, rounded down: for what must keep the clock's resolution (throttle
    /// blocks) rather than a token's whole seconds.
    public var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The date `epochMilliseconds` milliseconds after 1970-01-01T00:00:00Z.
    /// - Parameter epochMilliseconds: Milliseconds since 1970.
    public init(epochMilliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(epochMilliseconds) / 1000)
    }

    /// The date `epochSeconds` whole seconds after 1970-01-01T00:00:00Z.
    /// - Parameter epochSeconds: Seconds since 1970, as stored and signed.
    public init(epochSeconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(epochSeconds))
    }
}
