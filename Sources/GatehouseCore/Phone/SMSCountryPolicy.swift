import Foundation

/// Which numbers phone sign-in may text (toll-fraud protection, part one): only numbers under an allowed
/// country calling code (`GATEHOUSE_SMS_COUNTRIES`; none allowed means phone sign-in is off), and never
/// one under a refused prefix (premium-rate and shared-cost ranges where SMS pumping pays out).
public struct SMSCountryPolicy: Sendable, Equatable {
    /// Allowed country calling codes, digits only (`1`, `44`, `353`).
    public let allowedCodes: Set<String>
    /// Refused prefixes, digits only, checked after the allow list.
    public let refusedPrefixes: [String]

    /// Premium-rate and special ranges refused by default: North America's 900 and 976, the UK's 09
    /// (premium), 087 (shared cost) and 070 (personal numbering, a known pumping target), France's 08 9x.
    public static let defaultRefusedPrefixes = ["1900", "1976", "449", "4487", "4470", "3389"]

    /// Why a number may not be texted.
    public enum Refusal: Error, Equatable, Sendable {
        /// Phone sign-in is off: no country is allowed.
        case disabled
        /// The number's country calling code is not in the allow list.
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
    ///   - allowedCodes: Country calling codes, digits with or without `+`.
    ///   - refusedPrefixes: Digit prefixes never texted.
    public init(allowedCodes: some Sequence<String>, refusedPrefixes: [String] = SMSCountryPolicy.defaultRefusedPrefixes) {
        self.allowedCodes = Set(allowedCodes.map { $0.hasPrefix("+") ? String($0.dropFirst()) : $0 })
        self.refusedPrefixes = refusedPrefixes.map { $0.hasPrefix("+") ? String($0.dropFirst()) : $0 }
    }

    /// Phone sign-in off.
    public static let disabled = SMSCountryPolicy(allowedCodes: [String]())

    /// Whether phone sign-in is on at all.
    public var isEnabled: Bool { !allowedCodes.isEmpty }

    /// Parses `GATEHOUSE_SMS_COUNTRIES`: comma-separated country calling codes (`1,44,+353`).
    /// - Parameter value: The setting; empty or absent means off.
    /// - Returns: The policy with the default refused prefixes.
    /// - Throws: `internal_error` naming the setting when a code is not 1 to 3 digits.
    public static func parse(countries value: String?) throws -> SMSCountryPolicy {
        let codes = (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for code in codes {
            let digits = code.hasPrefix("+") ? code.dropFirst() : Substring(code)
            // One-digit codes exist only for North America (1) and Russia and Kazakhstan (7): a lone `3`
            // would otherwise allow every +3x country at once.
            guard (1...3).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }), digits.first != "0",
                digits.count > 1 || digits == "1" || digits == "7"
            else {
                throw GatehouseError.internalError(
                    cause: "GATEHOUSE_SMS_COUNTRIES: \(code.prefix(8)) is not a country calling code (1 to 3 digits, e.g. 1,44,353)"
                )
            }
        }
        return SMSCountryPolicy(allowedCodes: codes)
    }

    /// The one form of `number` that is texted, counted and stored, once it may be texted: a national
    /// trunk 0 typed after the country code (`+44 (0)7700 900123`) is dropped, so one number cannot
    /// pass for several (each with its own quotas, or slipping past a refused range as `+44 (0)9…`);
    /// a North American number must have its 10 digits, its area code and exchange not starting with
    /// 0 or 1 (`+1 1 900…` is not a way around `+1 900`). Refused ranges are checked on this form.
    /// - Parameter number: The number as parsed.
    /// - Returns: The canonical number.
    /// - Throws: ``Refusal``.
    public func canonical(_ number: PhoneNumber) throws -> PhoneNumber {
        guard isEnabled else { throw Refusal.disabled }
        // Country calling codes are prefix-free, so at most one allowed code matches.
        guard let code = allowedCodes.first(where: { number.hasPrefix($0) }) else { throw Refusal.countryNotAllowed }
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
        return canonical
    }

    /// Checks that `number` may be texted (see ``canonical(_:)``).
    /// - Parameter number: The number.
    /// - Throws: ``Refusal``.
    public func check(_ number: PhoneNumber) throws {
        _ = try canonical(number)
    }
}
