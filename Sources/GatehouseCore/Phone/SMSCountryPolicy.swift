import Foundation

/// Which numbers phone sign-in may text (toll-fraud protection, part one): only numbers the country
/// table (``CountryPrefixTable``) places in an allowed country (`GATEHOUSE_SMS_COUNTRIES`, ISO 3166
/// codes such as `US,CA,GB`; none allowed means phone sign-in is off), never a number the table cannot
/// place, and never one under a refused prefix (premium-rate and shared-cost ranges where SMS pumping
/// pays out).
///
/// Countries, not calling codes: `+1` is shared by the United States, Canada and 23 Caribbean and
/// Pacific countries and territories, and `+44` by the United Kingdom and the Crown Dependencies —
/// the usual SMS-pumping destinations, billed to an operator who meant "US, Canada and the UK".
public struct SMSCountryPolicy: Sendable, Equatable {
    /// Allowed countries, ISO 3166-1 alpha-2 (`US`, `GB`).
    public let allowedCountries: Set<String>
    /// Refused prefixes, digits only, checked after the country.
    public let refusedPrefixes: [String]
    let table: CountryPrefixTable

    /// Premium-rate and special ranges refused by default: North America's 900 and 976, the UK's 09
    /// (premium), 087 (shared cost) and 070 (personal numbering, a known pumping target), France's 08 9x.
    public static let defaultRefusedPrefixes = ["1900", "1976", "449", "4487", "4470", "3389"]

    /// Why a number may not be texted.
    public enum Refusal: Error, Equatable, Sendable {
        /// Phone sign-in is off: no country is allowed.
        case disabled
        /// The number's country is not in the allow list, or the table cannot place the number.
        case countryNotAllowed
        /// The number is in a refused range.
        case refusedPrefix
        /// The number cannot exist in its country (a +1 number without 10 national digits, or an area
        /// code starting with 0 or 1).
        case notANumber
    }

    /// Countries whose national numbers keep their leading 0 after the country code (Italy, San Marino,
    /// the Vatican): everywhere else a 0 there is a trunk prefix typed by habit.
    static let keepsLeadingZero: Set<String> = ["39", "378", "379"]

    /// - Parameters:
    ///   - allowedCountries: ISO 3166-1 alpha-2 codes (any case).
    ///   - refusedPrefixes: Digit prefixes never texted.
    ///   - table: Where numbers are placed (the shipped table by default).
    public init(
        allowedCountries: some Sequence<String>,
        refusedPrefixes: [String] = SMSCountryPolicy.defaultRefusedPrefixes,
        table: CountryPrefixTable = .shipped
    ) {
        self.allowedCountries = Set(allowedCountries.map { $0.uppercased() })
        self.refusedPrefixes = refusedPrefixes.map { $0.hasPrefix("+") ? String($0.dropFirst()) : $0 }
        self.table = table
    }

    public static func == (lhs: SMSCountryPolicy, rhs: SMSCountryPolicy) -> Bool {
        lhs.allowedCountries == rhs.allowedCountries && lhs.refusedPrefixes == rhs.refusedPrefixes
    }

    /// Phone sign-in off.
    public static let disabled = SMSCountryPolicy(allowedCountries: [String]())

    /// Whether phone sign-in is on at all.
    public var isEnabled: Bool { !allowedCountries.isEmpty }

    /// Parses `GATEHOUSE_SMS_COUNTRIES`: comma-separated ISO 3166 country codes (`US,CA,GB`). A country
    /// calling code is accepted only where it is explicit about what it admits, that is where it
    /// belongs to one country alone (`353` is Ireland); a shared one (`1`, `44`, `7`) is refused with
    /// the list of countries it would have admitted.
    /// - Parameter value: The setting; empty or absent means off.
    /// - Returns: The policy with the default refused prefixes.
    /// - Throws: `internal_error` naming the setting and the entry it cannot take.
    public static func parse(countries value: String?, table: CountryPrefixTable = .shipped) throws -> SMSCountryPolicy {
        let entries = (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var countries: [String] = []
        for entry in entries {
            let shown = String(entry.prefix(8))
            let digits = entry.hasPrefix("+") ? entry.dropFirst() : Substring(entry)
            if !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) {
                let under = table.countries(underCallingCode: String(digits))
                guard table.callingCode(ofDigits: digits) == String(digits), !under.isEmpty else {
                    throw GatehouseError.internalError(
                        cause: "GATEHOUSE_SMS_COUNTRIES: \(shown) is not a country calling code; list countries by ISO code (e.g. US,CA,GB)"
                    )
                }
                guard under.count == 1, let only = under.first else {
                    throw GatehouseError.internalError(
                        cause: "GATEHOUSE_SMS_COUNTRIES: +\(digits) is shared by \(under.sorted().joined(separator: ", ")); "
                            + "list the countries you mean by ISO code (e.g. US,CA for +1, GB for +44)"
                    )
                }
                countries.append(only)
                continue
            }
            let code = entry.uppercased()
            guard code.count == 2, code.allSatisfy({ ("A"..."Z").contains($0) }), table.countries.contains(code) else {
                throw GatehouseError.internalError(
                    cause: "GATEHOUSE_SMS_COUNTRIES: \(shown) is not a country this server can place numbers in (ISO 3166 codes such as US,CA,GB)"
                )
            }
            countries.append(code)
        }
        return SMSCountryPolicy(allowedCountries: countries, table: table)
    }

    /// The one form of `number` that is texted, counted and stored, once it may be texted: a national
    /// trunk 0 typed after the country code (`+44 (0)7700 900123`) is dropped, so one number cannot
    /// pass for several (each with its own quotas, or slipping past a refused range as `+44 (0)9…`);
    /// a North American number must have its 10 digits, its area code and exchange not starting with
    /// 0 or 1 (`+1 1 900…` is not a way around `+1 900`). The country and the refused ranges are
    /// decided on this form.
    /// - Parameter number: The number as parsed.
    /// - Returns: The canonical number.
    /// - Throws: ``Refusal``.
    public func canonical(_ number: PhoneNumber) throws -> PhoneNumber {
        guard isEnabled else { throw Refusal.disabled }
        guard let code = table.callingCode(ofDigits: number.digits) else { throw Refusal.countryNotAllowed }
        var national = number.digits.dropFirst(code.count)
        if !Self.keepsLeadingZero.contains(code) {
            if national.first == "0" { national = national.dropFirst() }
            guard national.first != "0" else { throw Refusal.notANumber }
        }
        if code == "1" {
            let digits = Array(national)
            guard digits.count == 10, digits[0] >= "2", digits[3] >= "2" else { throw Refusal.notANumber }
        }
        let canonical: PhoneNumber
        do {
            canonical = try PhoneNumber(parsing: "+" + code + national)
        } catch {
            throw Refusal.notANumber
        }
        guard !refusedPrefixes.contains(where: { canonical.hasPrefix($0) }) else { throw Refusal.refusedPrefix }
        guard let country = table.country(of: canonical), allowedCountries.contains(country) else { throw Refusal.countryNotAllowed }
        return canonical
    }

    /// Checks that `number` may be texted (see ``canonical(_:)``).
    /// - Parameter number: The number.
    /// - Throws: ``Refusal``.
    public func check(_ number: PhoneNumber) throws {
        _ = try canonical(number)
    }
}
