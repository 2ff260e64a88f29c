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

    /// RFC 3339 in UTC with milliseconds (`2026-11-22T06:14:00.123Z`): the audit log's times.
    /// - Parameter date: The instant.
    /// - Returns: Its RFC 3339 form with three fraction digits.
    public static func milliseconds(_ date: Date) -> String {
        let millis = Int(date.epochMilliseconds % 1000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return String(string(date).dropLast()) + "." + fraction + "Z"
    }

    /// Reads an RFC 3339 time (`2026-11-22T06:14:00Z`, a fraction or an offset allowed), or a date alone (`2026-11-22`, midnight UTC).
    /// - Parameter text: The text.
    /// - Returns: The instant, or `nil` when the text is not one.
    public static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = full.date(from: text) { return date }
        full.formatOptions = [.withFullDate]
        return full.date(from: text)
    }
}
