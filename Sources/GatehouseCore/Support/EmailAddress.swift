import Foundation

/// An email address as a user typed it, normalised (Unicode NFKC) and validated, with the lower-cased
/// key we look accounts up by.
///
/// NFKC comes first, so compatibility forms are the address they stand for: `ｗｉｄｅ＠example.com`
/// (full-width letters and `＠`) is `wide@example.com`, one account, not a second one beside it. An
/// address whose normal form breaks the rules (a no-break space becomes a space, say) is invalid.
/// ASCII is its own normal form, so an all-ASCII address skips normalisation.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address in its normal form, case kept (what mail is sent to).
    public let value: String
    /// Case-folded normal form: the unique key of an account.
    public let key: String

    /// The most UTF-8 bytes an address may have, after normalisation.
    public static let maxLength = 254

    /// Normalises `raw` (NFKC) and validates it; the value keeps its case, the key is lower-cased.
    /// - Parameter raw: The address as the client sent it.
    /// - Throws: `invalid_request` ("'email' is not a valid email address.") when it is empty, longer
    ///   than ``maxLength`` bytes after normalisation, or breaks the rules of ``unicodeKey(_:)``.
    public init(_ raw: String) throws(GatehouseError) {
        let invalid = GatehouseError.invalidRequest("'email' is not a valid email address.")
        guard !raw.isEmpty else { throw invalid }
        if raw.utf8.allSatisfy({ $0 < 0x80 }) {
            guard raw.utf8.count <= Self.maxLength, let key = Self.asciiKey(raw) else { throw invalid }
            self.value = raw
            self.key = key
            return
        }
        // A full-width character is three bytes for the one it stands for: allow for that before
        // normalising, and apply the real limit to the normal form.
        guard raw.utf8.count <= 4 * Self.maxLength else { throw invalid }
        let normal = raw.precomposedStringWithCompatibilityMapping
        guard normal.utf8.count <= Self.maxLength,
            let key = normal.utf8.allSatisfy({ $0 < 0x80 }) ? Self.asciiKey(normal) : Self.unicodeKey(normal)
        else { throw invalid }
        self.value = normal
        self.key = key
    }

    /// The key of a valid address in any script (given in NFKC), or `nil`. The rules: no whitespace or control
    /// characters anywhere (which also keeps mail headers injection-free); one `@`; an unquoted local
    /// part of RFC 5322 atext and single inner dots, at most 64 bytes; a domain of at least two labels
    /// of letters, digits and inner hyphens, at most 63 bytes each and 253 in all, whose last label is
    /// not all digits.
    static func unicodeKey(_ raw: String) -> String? {
        for scalar in raw.unicodeScalars {
            if scalar.isASCII {
                // Controls, space and the other ASCII whitespace are all below 0x21.
                if scalar.value < 0x21 || scalar.value == 0x7F { return nil }
                continue
            }
            if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
                || scalar.properties.generalCategory == .format || scalar == "\u{2028}" || scalar == "\u{2029}"
            {
                return nil
            }
        }
        let parts = raw.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let local = parts[0]
        let domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= 64, !local.hasPrefix("."), !local.hasSuffix("."),
            !local.contains("..")
        else { return nil }
        for byte in local.utf8 where byte < 0x80 {
            if !(isASCIILetterOrDigit(byte) || isAtextSymbolOrDot(byte)) { return nil }
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.utf8.count <= 253 else { return nil }
        for label in labels {
            guard !label.isEmpty, label.utf8.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-") else { return nil }
            for scalar in label.unicodeScalars {
                let ok =
                    scalar.isASCII
                    ? scalar == "-" || isASCIILetterOrDigit(UInt8(scalar.value))
                    : scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                if !ok { return nil }
            }
        }
        guard let tld = labels.last, tld.unicodeScalars.contains(where: { !("0"..."9").contains($0) }) else { return nil }
        // Lower-casing can leave the normal form (U+0130 becomes i and a combining dot): normalise again.
        return raw.lowercased().precomposedStringWithCompatibilityMapping
    }

    /// ``unicodeKey(_:)``'s rules for an all-ASCII address (nearly every address, and every one a
    /// provider token carries), checked in one pass over the bytes: no splitting, no Unicode lookups.
    static func asciiKey(_ raw: String) -> String? {
        let bytes = Array(raw.utf8)
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0, at <= 64, bytes.count - at - 1 <= 253 else { return nil }
        var previous = UInt8(ascii: ".")  // a leading dot is refused like a doubled one
        for byte in bytes[..<at] {
            if byte == UInt8(ascii: ".") {
                if previous == byte { return nil }
            } else if !(isASCIILetterOrDigit(byte) || isAtextSymbolOrDot(byte)) {
                return nil
            }
            previous = byte
        }
        guard previous != UInt8(ascii: ".") else { return nil }
        var labels = 0
        var labelLength = 0
        var labelAllDigits = true
        previous = UInt8(ascii: ".")
        for byte in bytes[(at + 1)...] {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0, previous != UInt8(ascii: "-") else { return nil }
                labels += 1
                labelLength = 0
                labelAllDigits = true
            } else {
                let hyphen = byte == UInt8(ascii: "-")
                guard hyphen || isASCIILetterOrDigit(byte), !(hyphen && labelLength == 0) else { return nil }
                labelLength += 1
                guard labelLength <= 63 else { return nil }
                if byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") { labelAllDigits = false }
            }
            previous = byte
        }
        // The last label: present, not ending in a hyphen, not all digits; and at least two labels.
        guard labelLength > 0, previous != UInt8(ascii: "-"), !labelAllDigits, labels >= 1 else { return nil }
        return String(decoding: bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The symbols RFC 5322 allows in an unquoted local part, and the dot.
    static func isAtextSymbolOrDot(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "?"),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"),
            UInt8(ascii: "~"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Redacted, `<email>`, so an address interpolated into a log line does not leak it.
    public var description: String { "<email>" }

    /// The masked destination Cognito shows (`a***@e***.com`), computed from the address itself so it
    /// is the same whether or not an account exists.
    public var masked: String {
        let parts = key.split(separator: "@", maxSplits: 1)
        let local = parts[0]
        let domain = parts.count > 1 ? parts[1] : ""
        let tld = domain.split(separator: ".").last.map { "." + $0 } ?? ""
        return "\(local.prefix(1))***@\(domain.prefix(1))***\(tld)"
    }
}
