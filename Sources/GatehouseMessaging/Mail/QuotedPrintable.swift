import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// RFC 2045 quoted-printable for UTF-8 text: lines of at most 76 characters (soft breaks `=`), `=`,
/// controls, non-ASCII bytes and line-final white space written as `=XX`, CRLF line breaks.
public enum QuotedPrintable {
    /// The longest encoded line, soft-break `=` included (RFC 2045 §6.7).
    public static let lineLimit = 76
    static let hex = Array("0123456789ABCDEF".utf8)

    /// Encodes text.
    /// - Parameter text: UTF-8 text; CRLF, CR and LF all count as one line break.
    /// - Returns: The encoded text, lines joined by CRLF, no final line break added.
    public static func encode(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var output: [String] = []
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            output.append(encodeLine(Array(line.utf8)))
        }
        return output.joined(separator: "\r\n")
    }

    static func encodeLine(_ bytes: [UInt8]) -> String {
        var encoded: [UInt8] = []
        var lineLength = 0
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            var piece: [UInt8]
            if (byte == 0x20 || byte == 0x09) && !isLast {
                piece = [byte]
            } else if byte >= 33 && byte <= 126 && byte != 61 {
                piece = [byte]
            } else {
                piece = [61, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
            // Room for the piece and, unless it ends the line, a soft break after it.
            let room = isLast ? lineLimit : lineLimit - 1
            if lineLength + piece.count > room {
                encoded += Array("=\r\n".utf8)
                lineLength = 0
            }
            encoded += piece
            lineLength += piece.count
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Decodes quoted-printable text (soft breaks removed, `=XX` turned back into bytes, CRLF line
    /// breaks into LF).
    /// - Parameter text: Encoded text.
    /// - Returns: The bytes, or `nil` when an `=` is followed by neither a line break nor two hex digits.
    public static func decode(_ text: String) -> [UInt8]? {
        let bytes = Array(text.replacingOccurrences(of: "\r\n", with: "\n").utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 61 else {
                output.append(byte)
                index += 1
                continue
            }
            if index + 1 < bytes.count, bytes[index + 1] == 10 {
                index += 2
                continue
            }
            guard index + 2 < bytes.count, let high = value(bytes[index + 1]), let low = value(bytes[index + 2]) else { return nil }
            output.append(high << 4 | low)
            index += 3
        }
        return output
    }

    static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 65...70: digit - 55
        case 97...102: digit - 87
        default: nil
        }
    }
}
