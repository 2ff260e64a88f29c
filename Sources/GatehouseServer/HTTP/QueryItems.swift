/// A query string read as HTML forms and OAuth clients write it: `+` is a space, `%XX` a byte, names
/// and values both decoded, order and repeats kept (so a parameter sent twice can be refused).
enum QueryItems {
    /// The decoded pairs, or `nil` when a `%` escape is broken or the bytes are not UTF-8.
    /// - Parameter query: The raw query (without `?`), or `nil`.
    /// - Returns: The pairs in order.
    static func parse(_ query: String?) -> [(name: String, value: String)]? {
        guard let query, !query.isEmpty else { return [] }
        var items: [(name: String, value: String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(pieces[0]), let value = pieces.count > 1 ? decode(pieces[1]) : "" else { return nil }
            items.append((name, value))
        }
        return items
    }

    private static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Pairs written back as a query string, every reserved character percent-encoded.
    /// - Parameter items: The pairs.
    /// - Returns: `name=value&…`.
    static func encode(_ items: [(name: String, value: String)]) -> String {
        items.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }
}
