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

    /// The date `epochSeconds` whole seconds after 1970-01-01T00:00:00Z.
    /// - Parameter epochSeconds: Seconds since 1970, as stored and signed.
    public init(epochSeconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(epochSeconds))
    }
}
