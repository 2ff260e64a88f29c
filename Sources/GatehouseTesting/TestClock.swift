import Foundation
import GatehouseCore
import GatehouseInfrastructure

/// A clock tests move by hand.
public final class TestClock: TimeSource {
    private let current: LockedBox<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = LockedBox(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
