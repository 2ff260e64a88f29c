import Foundation

/// The `TIMESTAMP` of a `PASSWORD_VERIFIER` response: `EEE MMM d HH:mm:ss 'UTC' yyyy` in
/// en_US_POSIX, in UTC, the day not zero-padded ("Tue Nov 3 08:05:09 UTC 2026").
///
/// Written and read by hand rather than with `DateFormatter`: the format is fixed, and a formatter
/// with a non-POSIX locale or the process's time zone would read another instant. The client signs
/// the string itself, so the server must verify the signature over the string it received; this
/// type only decides whether that string names an instant close enough to now. Reading accepts a
/// zero-padded day (pycognito's device flow strips it with a regex, an older client may not) and does
/// not check the weekday against the date.
package enum CognitoSRPTimestamp {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// How far a timestamp may be from the server's clock, either way.
    package static let defaultTolerance: TimeInterval = 5 * 60

    /// `date` as a client writes it (whole seconds, fractions dropped).
    package static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = Int(((days % 7) + 7 + 4) % 7)
        return "\(weekdays[weekday]) \(months[month - 1]) \(day) \(twoDigits(secondOfDay / 3600)):"
            + "\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) UTC \(year)"
    }

    /// The instant `string` names, or `nil` if it is not in the format (or names no real date).
    package static func parse(_ string: String) -> Date? {
        let fields = string.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 6, weekdays.contains(String(fields[0])), fields[4] == "UTC",
            let monthIndex = months.firstIndex(of: String(fields[1])),
            let day = number(fields[2], digits: 1...2), let year = number(fields[5], digits: 4...4)
        else { return nil }
        let clock = fields[3].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = number(clock[0], digits: 2...2), let minute = number(clock[1], digits: 2...2),
            let second = number(clock[2], digits: 2...2), hour < 24, minute < 60, second < 60
        else { return nil }
        let month = monthIndex + 1
        guard day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let dayNumber = days(fromCivil: year, month, day)
        let seconds = dayNumber * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Whether `string` parses and is within `tolerance` of `now`.
    package static func isFresh(_ string: String, now: Date, tolerance: TimeInterval = defaultTolerance) -> Bool {
        guard let date = parse(string) else { return false }
        return abs(date.timeIntervalSince(now)) <= tolerance
    }

    private static func number(_ field: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(field.utf8.count), field.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(field)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `days(fromCivil:)` (Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
