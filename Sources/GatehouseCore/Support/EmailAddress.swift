import Foundation

/// An email address as a user typed it, validated, with the lower-cased key we look accounts up by.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as given (kept for sending mail).
    public let value: String
    /// Case-folded form: the unique key of an account.
    public let key: String

    public static let maxLength = 254

    public init(_ raw: String) throws(GatehouseError) {
        let invalid = GatehouseError.invalidRequest("'email' is not a valid email address.")
        guard raw.utf8.count <= Self.maxLength, !raw.isEmpty else { throw invalid }
        // No whitespace or control characters anywhere (also keeps mail headers injection-free).
        let ascii = raw.utf8.allSatisfy { $0 < 0x80 }
        for scalar in raw.unicodeScalars {
            if scalar.isASCII {
                // Controls, space and the other ASCII whitespace are all below 0x21.
                if scalar.value < 0x21 || scalar.value == 0x7F { throw invalid }
                continue
            }
            if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
                || scalar.properties.generalCategory == .format || scalar == "\u{2028}" || scalar == "\u{2029}"
            {
                throw invalid
            }
        }
        let parts = raw.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw invalid }
        let local = parts[0]
        let domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= 64, !local.hasPrefix("."), !local.hasSuffix("."),
            !local.contains("..")
        else { throw invalid }
        for byte in local.utf8 where byte < 0x80 {
            // RFC 5322 atext plus dot; quoted local parts are not accepted.
            if !(Self.isASCIILetterOrDigit(byte) || Self.atextSymbols.contains(byte)) { throw invalid }
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.utf8.count <= 253 else { throw invalid }
        for label in labels {
            guard !label.isEmpty, label.utf8.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-") else { throw invalid }
            for scalar in label.unicodeScalars {
                let ok =
                    scalar.isASCII
                    ? scalar == "-" || Self.isASCIILetterOrDigit(UInt8(scalar.value))
                    : scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                if !ok { throw invalid }
            }
        }
        guard let tld = labels.last, tld.unicodeScalars.contains(where: { !("0"..."9").contains($0) }) else { throw invalid }
        self.value = raw
        // NFC leaves ASCII as it is.
        self.key = ascii ? raw.lowercased() : raw.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// The symbols RFC 5322 allows in an unquoted local part, and the dot.
    static let atextSymbols = Set("!#$%&'*+-/=?^_`{|}~.".utf8)

    static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

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
