import Foundation

/// A telephone number in E.164 form (`+` and 8 to 15 digits, the first not 0), the only form phone
/// sign-in stores, compares and sends to.
///
/// Parsing accepts what people type in international form — `+44 20 7946 0958`, `+1 (415) 555-0100`,
/// `0044 20…` — and refuses the rest with a reason: national numbers without a country code (their
/// country cannot be known), letters (vanity numbers), extensions, several `+`, control characters,
/// and anything longer than E.164 allows.
public struct PhoneNumber: Hashable, Sendable, CustomStringConvertible {
    /// `+` and the digits, e.g. `+442079460958`.
    public let e164: String

    /// Why a typed number was refused (safe to show: it never echoes the input).
    public enum Problem: Error, Equatable, Sendable {
        case empty
        case notInternational
        case invalidCharacter
        case tooShort
        case tooLong
        case invalidCountryCode
    }

    /// Parses a typed number.
    /// - Parameter input: The number as typed (at most 64 characters are looked at).
    /// - Throws: ``Problem``.
    public init(parsing input: String) throws {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw Problem.empty }
        guard trimmed.unicodeScalars.count <= 64 else { throw Problem.tooLong }
        var digits = ""
        var sawPlus = false
        for (index, scalar) in trimmed.unicodeScalars.enumerated() {
            switch scalar {
            case "0"..."9":
                digits.unicodeScalars.append(scalar)
            case "+" where index == 0:
                sawPlus = true
            case " ", "-", ".", "(", ")":
                continue
            default:
                throw Problem.invalidCharacter
            }
        }
        if !sawPlus {
            // `00` is the international prefix in most of the world; anything else is a national number.
            guard digits.hasPrefix("00") else { throw Problem.notInternational }
            digits.removeFirst(2)
        }
        guard let first = digits.first else { throw Problem.tooShort }
        guard first != "0" else { throw Problem.invalidCountryCode }
        guard digits.count >= 8 else { throw Problem.tooShort }
        guard digits.count <= 15 else { throw Problem.tooLong }
        e164 = "+" + digits
    }

    /// The digits after `+`.
    public var digits: Substring { e164.dropFirst() }

    /// Whether the number starts with `prefix` (digits, with or without `+`).
    /// - Parameter prefix: Country calling code and more, e.g. `44` or `+1900`.
    /// - Returns: True when the number's digits begin with the prefix's.
    public func hasPrefix(_ prefix: String) -> Bool {
        let wanted = prefix.hasPrefix("+") ? prefix.dropFirst() : Substring(prefix)
        return !wanted.isEmpty && digits.hasPrefix(wanted)
    }

    /// The number's range for the per-prefix SMS cap: every digit but the last four (`+4477009`
    /// for `+447700900123`), so a block of consecutive numbers shares one quota.
    public var rangePrefix: String { "+" + digits.dropLast(4) }

    /// For logs: the country code and the last two digits only (`+44…58`).
    public var masked: String { "+" + digits.prefix(2) + "…" + digits.suffix(2) }

    public var description: String { masked }
}
