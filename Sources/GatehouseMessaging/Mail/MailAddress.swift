import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// One mailbox, `Name <address>` or a bare `address`, checked so that it can never break out of the
/// header it is written into: no line breaks, no control characters, nothing that ends or splits an
/// address. The display name is written as an atom, a quoted string or RFC 2047 encoded-words.
public struct MailAddress: Sendable, Equatable, CustomStringConvertible {
    /// Why a value is not a usable mailbox. The reason never repeats the value (it may be an address).
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, safe to log.
        public var reason: String

        /// An error.
        /// - Parameter reason: What is wrong, without the value itself.
        public init(_ reason: String) {
            self.reason = reason
        }

        /// The reason.
        public var description: String { reason }
    }

    /// The name shown to the reader, if any (never empty).
    public let displayName: String?
    /// The bare address, `local@domain`.
    public let address: String

    /// A mailbox from its parts.
    /// - Parameters:
    ///   - address: The bare address.
    ///   - displayName: The name to show, if any; blank counts as none.
    /// - Throws: ``Invalid`` when the address is not one plain `local@domain` or the name holds a
    ///   line break or control character.
    public init(address: String, displayName: String? = nil) throws(Invalid) {
        try Self.validate(address: address)
        let name = displayName?.trimmingCharacters(in: .whitespaces)
        if let name, name.unicodeScalars.contains(where: Self.isControl) {
            throw Invalid("the display name contains a line break or control character")
        }
        self.address = address
        self.displayName = (name?.isEmpty ?? true) ? nil : name
    }

    /// Parses `Name <address>`, `"Quoted, Name" <address>`, `<address>` or a bare `address`.
    /// - Parameter text: The value, as an operator writes it in a setting.
    /// - Throws: ``Invalid`` for anything else, and for any line break or control character.
    public init(parsing text: String) throws(Invalid) {
        if text.unicodeScalars.contains(where: Self.isControl) {
            throw Invalid("contains a line break or control character")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else {
            try self.init(address: trimmed)
            return
        }
        let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        var name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            name = Self.unquote(String(name.dropFirst().dropLast()))
        }
        try self.init(address: address, displayName: name)
    }

    /// The domain part of the address (what follows the `@`).
    public var domain: String { String(address[address.index(after: address.lastIndex(of: "@")!)...]) }

    /// The mailbox as a header writes it: the bare address, or the encoded name then `<address>`.
    public var header: String {
        guard let displayName else { return address }
        return "\(Self.encodePhrase(displayName)) <\(address)>"
    }

    /// The mailbox as a header writes it (``header``).
    public var description: String { header }

    /// Checks a bare address: one `@`, a local part and a domain, no spaces, controls, quotes, angle
    /// brackets or other characters that would end or split an address in a header.
    /// - Parameter address: The address.
    /// - Throws: ``Invalid`` naming what is wrong (never the address).
    public static func validate(address: String) throws(Invalid) {
        guard !address.isEmpty, address.utf8.count <= 254 else { throw Invalid("the address is empty or too long") }
        guard !address.unicodeScalars.contains(where: { isControl($0) || $0.properties.isWhitespace }) else {
            throw Invalid("the address contains a space, line break or control character")
        }
        guard !address.contains(where: { "<>\"(),;:\\[]".contains($0) }) else {
            throw Invalid("the address contains a character that is not allowed in a plain address (<>\"(),;:\\[])")
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw Invalid("the address must have exactly one @") }
        let domain = parts[1]
        guard !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains("..") else {
            throw Invalid("the address's domain is malformed")
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar == "\u{2028}"
            || scalar == "\u{2029}"
    }

    /// A display name as an RFC 5322 phrase: as it is when it is plain words, a quoted string when it
    /// holds specials, RFC 2047 encoded-words when it is not ASCII.
    static func encodePhrase(_ name: String) -> String {
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && !isControl($0) }) else {
            return MailHeaderEncoding.encodedWords(name).joined(separator: " ")
        }
        let atext = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ")
        if name.unicodeScalars.allSatisfy({ atext.contains($0) }) && !name.contains("=?") { return name }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    static func unquote(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
