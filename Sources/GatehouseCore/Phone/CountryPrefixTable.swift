import Foundation

/// Which country a telephone number is in, from the table in `Resources/Phone/country-prefixes.tsv`
/// (ITU-T E.164 country codes; NANPA's area codes in service for +1; Ofcom's ranges for the Crown
/// Dependencies under +44; the Russian and Kazakh plans under +7; the file names its sources and
/// date). Lookup is by the longest matching prefix; a number no line matches cannot be placed, and
/// the SMS policy refuses it.
public struct CountryPrefixTable: Sendable {
    /// Prefix (digits after `+`) → ISO 3166-1 alpha-2 country code.
    let countryByPrefix: [String: String]
    /// The longest prefix in the table, to bound the lookup.
    let longestPrefix: Int

    /// The table shipped with Gatehouse.
    public static let shipped: CountryPrefixTable = {
        do {
            return try CountryPrefixTable(parsing: String(decoding: PackageResources.country_prefixes_tsv, as: UTF8.self))
        } catch {
            preconditionFailure("the shipped country-prefix table is malformed: \(error)")
        }
    }()

    /// A line the table could not read.
    public struct Malformed: Error, CustomStringConvertible {
        /// The 1-based line number.
        public var line: Int
        public var description: String { "line \(line) is not '<digits><TAB><ISO code>'" }
    }

    /// Reads a table: `#` comments, blank lines, and `<digits>\t<ISO code>[\t# comment]`.
    /// - Parameter text: The table.
    /// - Throws: ``Malformed`` for a line of another form or a prefix listed twice.
    public init(parsing text: String) throws {
        var table: [String: String] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2, let prefix = fields.first, !prefix.isEmpty, prefix.allSatisfy({ ("0"..."9").contains($0) }),
                fields[1].count == 2, fields[1].allSatisfy({ ("A"..."Z").contains($0) }), table[String(prefix)] == nil
            else { throw Malformed(line: index + 1) }
            table[String(prefix)] = String(fields[1])
        }
        countryByPrefix = table
        longestPrefix = table.keys.map(\.count).max() ?? 0
    }

    /// Every country the table can place a number in.
    public var countries: Set<String> { Set(countryByPrefix.values) }

    /// The country `digits` (an E.164 number without `+`) is in, by the longest matching prefix.
    /// - Parameter digits: The number's digits.
    /// - Returns: The ISO code, or nil when no line matches.
    public func country(ofDigits digits: Substring) -> String? {
        var length = min(longestPrefix, digits.count)
        while length > 0 {
            if let country = countryByPrefix[String(digits.prefix(length))] { return country }
            length -= 1
        }
        return nil
    }

    /// The country `number` is in.
    /// - Parameter number: The number.
    /// - Returns: The ISO code, or nil when the table cannot place it.
    public func country(of number: PhoneNumber) -> String? {
        country(ofDigits: number.digits)
    }

    /// The country calling code that starts `digits`: calling codes are prefix-free, so it is the
    /// shortest table prefix of one to three digits that matches (`1` for the whole NANP, whose lines
    /// are area codes, and `599` for the Caribbean Netherlands and Curaçao, which have no line of
    /// their own).
    /// - Parameter digits: A number's digits.
    /// - Returns: The calling code, or nil when none is known.
    public func callingCode(ofDigits digits: Substring) -> String? {
        for length in 1...3 where digits.count >= length {
            let candidate = String(digits.prefix(length))
            if countryByPrefix[candidate] != nil || Self.codesWithoutALine.contains(candidate) { return candidate }
        }
        return nil
    }

    /// Calling codes shared by several countries whose table lines are all longer than the code.
    static let codesWithoutALine: Set<String> = ["1", "599"]

    /// The countries whose numbers start with calling code `code`.
    /// - Parameter code: A calling code, digits.
    /// - Returns: Their ISO codes.
    public func countries(underCallingCode code: String) -> Set<String> {
        Set(countryByPrefix.filter { $0.key.hasPrefix(code) }.map(\.value))
    }
}
