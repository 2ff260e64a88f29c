import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Writes header fields that cannot break the header block: unstructured text (a subject) is made one
/// line (controls become spaces), encoded as RFC 2047 encoded-words when it is not plain ASCII, and
/// folded at 78 columns so every continuation line starts with a space.
enum MailHeaderEncoding {
    /// The longest line a header is folded to (RFC 5322's recommended limit, CRLF excluded).
    static let lineLimit = 78

    /// One header field, folded, without its final CRLF.
    /// - Parameters:
    ///   - name: The field name (`Subject`).
    ///   - words: The value's words: they are joined with single spaces, and lines break between them.
    /// - Returns: `Name: value`, continuation lines starting with a space, joined by CRLF.
    static func field(_ name: String, words: [String]) -> String {
        var lines: [String] = []
        var line = "\(name):"
        var lineHasWord = false
        for word in words {
            if lineHasWord, line.count + 1 + word.count > lineLimit {
                lines.append(line)
                line = ""
            }
            line += " " + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\r\n")
    }

    /// An unstructured header field (`Subject`): one line of text, RFC 2047 encoded when it is not plain
    /// printable ASCII (or looks like an encoded-word itself), folded.
    /// - Parameters:
    ///   - name: The field name.
    ///   - text: The value; line breaks and other controls become spaces.
    /// - Returns: The folded field, without its final CRLF.
    static func unstructured(_ name: String, _ text: String) -> String {
        let clean = singleLine(text)
        if clean.unicodeScalars.allSatisfy({ $0.isASCII }) && !clean.contains("=?") {
            return field(name, words: clean.split(separator: " ").map(String.init))
        }
        return field(name, words: encodedWords(clean))
    }

    /// `text` on one line: every control character (CR, LF, tab, …) becomes a space, runs of spaces
    /// become one, and the ends are trimmed.
    /// - Parameter text: Any text.
    /// - Returns: The text, safe to put in a header.
    static func singleLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            let space = MailAddress.isControl(scalar) || scalar.properties.isWhitespace
            if space {
                if !lastWasSpace { scalars.append(" ") }
            } else {
                scalars.append(scalar)
            }
            lastWasSpace = space
        }
        return String(scalars).trimmingCharacters(in: .whitespaces)
    }

    /// RFC 2047 `B` encoded-words for `text`, each at most 75 characters, never splitting a UTF-8 sequence.
    /// - Parameter text: The text.
    /// - Returns: The encoded-words, to be separated by folding white space.
    static func encodedWords(_ text: String) -> [String] {
        let maximumBytes = 45  // 60 base64 characters + "=?utf-8?B?" + "?=" = 72
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > maximumBytes {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words
    }

    static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?utf-8?B?\(Data(bytes).base64EncodedString())?="
    }

    /// Decodes RFC 2047 `B` and `Q` encoded-words (UTF-8), dropping the white space between adjacent
    /// ones, as a mail reader does: for tests and diagnostics.
    /// - Parameter value: An unfolded header value.
    /// - Returns: The text.
    static func decode(_ value: String) -> String {
        var output = ""
        var pendingSpace = ""
        var previousWasEncoded = false
        for (index, token) in value.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { pendingSpace += " " }
            let decoded = decodeWord(String(token))
            if let decoded {
                output += (previousWasEncoded ? "" : pendingSpace) + decoded
            } else {
                output += pendingSpace + token
            }
            pendingSpace = ""
            previousWasEncoded = decoded != nil
        }
        return output
    }

    static func decodeWord(_ word: String) -> String? {
        guard word.hasPrefix("=?"), word.hasSuffix("?="), word.count >= 8 else { return nil }
        let parts = word.dropFirst(2).dropLast(2).split(separator: "?", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return nil }
        switch parts[1].uppercased() {
        case "B":
            guard let data = Data(base64Encoded: String(parts[2])) else { return nil }
            return String(data: data, encoding: .utf8)
        case "Q":
            guard let bytes = QuotedPrintable.decode(parts[2].replacingOccurrences(of: "_", with: " ")) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        default:
            return nil
        }
    }
}
