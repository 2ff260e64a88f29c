/// How ``GatehouseLogHandler`` keeps each event on one line it wrote itself.
///
/// Escaped everywhere (message, metadata keys and values, label, both formats): `\` and `"` with a
/// backslash; CR, LF and tab as `\r`, `\n`, `\t`; every other C0 control, DEL, every C1 control
/// (U+0080–U+009F, NEL among them), the line and paragraph separators U+2028/U+2029 and the bidi
/// controls (which can make a terminal show text out of order) as `\uXXXX`.
enum LogLineEscaping {
    /// Whether `scalar` is written as a `\uXXXX` escape rather than as itself.
    static func needsUnicodeEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `value` with backslash, quote and every character above escaped.
    static func escape(_ value: String) -> String {
        // Most values (ids, codes, paths) are printable ASCII without `\` or `"`: return them as they are.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) { return value }
        var out = ""
        out.reserveCapacity(value.utf8.count + 8)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsUnicodeEscape(scalar): out += unicodeEscape(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A message for the text format: escaped, and quoted when it holds `=` or `"`, so that no part
    /// of it can be read as a `key=value` field.
    static func message(_ message: String) -> String {
        let escaped = escape(message)
        return escaped.contains(where: { $0 == "=" || $0 == "\"" }) ? "\"" + escaped + "\"" : escaped
    }

    /// A metadata key or logger label for the text format: space, `=` and `"` become `_`, then escaped.
    static func key(_ key: String) -> String {
        guard key.contains(where: { $0 == " " || $0 == "=" || $0 == "\"" }) else { return escape(key) }
        return escape(String(key.map { $0 == " " || $0 == "=" || $0 == "\"" ? "_" : $0 }))
    }

    /// Serialized JSON with the characters its serializer leaves raw (DEL, C1, U+2028/2029, bidi
    /// controls) rewritten as `\uXXXX`. Those characters can only occur inside JSON strings, where the
    /// escape means the same character, so the document's value is unchanged.
    static func escapeJSONOutput(_ json: String) -> String {
        // Nearly every line is ASCII below DEL: nothing to do.
        guard !json.utf8.allSatisfy({ $0 < 0x7F }), json.unicodeScalars.contains(where: needsUnicodeEscape) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 8)
        for scalar in json.unicodeScalars {
            if needsUnicodeEscape(scalar) { out += unicodeEscape(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    private static let hex = Array("0123456789abcdef")

    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let v = Int(scalar.value)  // every escaped scalar is in the BMP
        return "\\u" + String([hex[(v >> 12) & 0xF], hex[(v >> 8) & 0xF], hex[(v >> 4) & 0xF], hex[v & 0xF]])
    }
}
