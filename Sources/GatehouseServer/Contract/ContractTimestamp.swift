import Foundation
import GatehouseCore

/// The contract's timestamps: RFC 3339 in UTC, whole seconds (`2026-11-22T06:14:00Z`).
public enum ContractTimestamp {
    /// - Parameter date: The instant.
    /// - Returns: Its RFC 3339 form.
    public static func string(_ date: Date) -> String {
        var seconds = time_t(date.epochSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let day = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
        return day + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
