import Foundation

/// A JSON parser (RFC 8259) that refuses what a lenient parser lets through: duplicate member names,
/// invalid UTF-8, lone surrogates, control characters in strings, leading zeros, trailing garbage
/// and nesting deeper than `maxDepth`. Used for request bodies and for JWT headers and payloads.
///
/// Kept over Foundation: on this toolchain (Swift 6.3.1, Linux) `JSONDecoder` and `JSONSerialization`
/// both accept duplicate member names — the decoder keeps the first, `JSONSerialization` the last, a
/// parser differential — and refusing them is this parser's job. It is also 1.70x
/// `JSONSerialization.jsonObject` on a sign-in body (Benchmarks/Microbench `json-parse`).
package struct StrictJSONParser {
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let reason: String
        package let offset: Int
        package var description: String { "\(reason) at byte \(offset)" }
    }

    package var maxDepth: Int

    package init(maxDepth: Int = 32) {
        self.maxDepth = maxDepth
    }

    package func parse(_ bytes: some Collection<UInt8>) throws(Failure) -> JSONValue {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(Failure) -> JSONValue in
            var reader = Reader(bytes: buffer, maxDepth: maxDepth)
            reader.skipWhitespace()
            let value = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.fail("unexpected data after the JSON value") }
            return value
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        func fail(_ reason: String) -> Failure { Failure(reason: reason, offset: index) }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func expect(_ literal: StaticString, value: JSONValue) throws(Failure) -> JSONValue {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw fail("truncated literal") }
            let start = literal.utf8Start
            for offset in 0..<count where bytes[index + offset] != start[offset] {
                throw fail("invalid literal")
            }
            index += count
            return value
        }

        mutating func readValue(depth: Int) throws(Failure) -> JSONValue {
            guard let byte = current else { throw fail("unexpected end of input") }
            switch byte {
            case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
            case UInt8(ascii: "["): return try readArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
            case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
            case UInt8(ascii: "n"): return try expect("null", value: .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
            default: throw fail("unexpected character")
            }
        }

        mutating func readObject(depth: Int) throws(Failure) -> JSONValue {
            guard depth <= maxDepth else { throw fail("nesting too deep") }
            index += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                let keyOffset = index
                let key = try readString()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
                index += 1
                skipWhitespace()
                let value = try readValue(depth: depth)
                if members.updateValue(value, forKey: key) != nil {
                    throw Failure(reason: "duplicate member name", offset: keyOffset)
                }
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                default: throw fail("expected ',' or '}'")
                }
            }
        }

        mutating func readArray(depth: Int) throws(Failure) -> JSONValue {
            guard depth <= maxDepth else { throw fail("nesting too deep") }
            index += 1
            var values: [JSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            }
            while true {
                skipWhitespace()
                values.append(try readValue(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(values)
                default: throw fail("expected ',' or ']'")
                }
            }
        }

        mutating func readHex4() throws(Failure) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[index]
                let digit: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw fail("invalid \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        mutating func readString() throws(Failure) -> String {
            index += 1  // opening quote
            let start = index
            // Fast path: no escapes.
            while index < bytes.count {
                let c = bytes[index]
                if c == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    guard let string = String(validating: slice, as: UTF8.self) else {
                        throw Failure(reason: "invalid UTF-8 in string", offset: start)
                    }
                    return string
                }
                if c == UInt8(ascii: "\\") { break }
                if c < 0x20 { throw fail("control character in string") }
                index += 1
            }
            guard index < bytes.count else { throw fail("unterminated string") }
            var scratch = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let c = bytes[index]
                switch c {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let string = String(validating: scratch, as: UTF8.self) else {
                        throw Failure(reason: "invalid UTF-8 in string", offset: start)
                    }
                    return string
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escape = current else { throw fail("unterminated escape") }
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scratch.append(0x22)
                    case UInt8(ascii: "\\"): scratch.append(0x5C)
                    case UInt8(ascii: "/"): scratch.append(0x2F)
                    case UInt8(ascii: "b"): scratch.append(0x08)
                    case UInt8(ascii: "f"): scratch.append(0x0C)
                    case UInt8(ascii: "n"): scratch.append(0x0A)
                    case UInt8(ascii: "r"): scratch.append(0x0D)
                    case UInt8(ascii: "t"): scratch.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try readHex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            else { throw fail("lone surrogate") }
                            index += 2
                            let low = try readHex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(scalar) {
                            throw fail("lone surrogate")
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid code point") }
                        scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: throw fail("invalid escape")
                    }
                default:
                    if c < 0x20 { throw fail("control character in string") }
                    scratch.append(c)
                    index += 1
                }
            }
            throw fail("unterminated string")
        }

        mutating func readNumber() throws(Failure) -> JSONValue {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
                throw fail("invalid number")
            }
            if first == UInt8(ascii: "0") {
                index += 1
                if let next = current, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") {
                    throw fail("leading zero in number")
                }
            } else {
                skipDigits()
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard skipDigits() > 0 else { throw fail("invalid fraction") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() > 0 else { throw fail("invalid exponent") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { throw Failure(reason: "number out of range", offset: start) }
            return .number(value)
        }

        @discardableResult
        mutating func skipDigits() -> Int {
            let start = index
            while let c = current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
    }
}
