/// Decodes one CBOR item from the front of a byte string and says where it ended (authenticator data
/// holds a COSE key followed by optional extensions, so the caller needs the end).
struct CBORDecoder {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static let maxDepth = 16

    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Decodes a whole byte string that must hold exactly one item.
    static func decodeOne(_ bytes: [UInt8]) throws(Malformed) -> CBORValue {
        var decoder = CBORDecoder(bytes)
        let value = try decoder.decode()
        guard decoder.offset == bytes.count else { throw Malformed(description: "bytes after the CBOR item") }
        return value
    }

    mutating func decode(depth: Int = 0) throws(Malformed) -> CBORValue {
        guard depth <= Self.maxDepth else { throw Malformed(description: "nested too deeply") }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        switch major {
        case 0: return .unsigned(try argument(info))
        case 1:
            let value = try argument(info)
            guard value <= UInt64(Int64.max) else { throw Malformed(description: "negative integer out of range") }
            return .negative(-1 - Int64(value))
        case 2: return .bytes(try take(try length(info)))
        case 3:
            guard let text = String(validating: try take(try length(info)), as: UTF8.self) else { throw Malformed(description: "text is not UTF-8") }
            return .text(text)
        case 4:
            let count = try length(info)
            var items: [CBORValue] = []
            for _ in 0..<count { items.append(try decode(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try length(info)
            var pairs: [(CBORValue, CBORValue)] = []
            for _ in 0..<count {
                let key = try decode(depth: depth + 1)
                guard !pairs.contains(where: { $0.0 == key }) else { throw Malformed(description: "duplicate map key") }
                pairs.append((key, try decode(depth: depth + 1)))
            }
            return .map(pairs)
        case 6:
            _ = try argument(info)  // a tag: WebAuthn uses none; the tagged item stands for itself
            return try decode(depth: depth + 1)
        default:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            default: throw Malformed(description: "unsupported simple value or float")
            }
        }
    }

    private mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < bytes.count else { throw Malformed(description: "truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ count: Int) throws(Malformed) -> [UInt8] {
        guard count >= 0, count <= bytes.count - offset else { throw Malformed(description: "truncated") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    private mutating func argument(_ info: UInt8) throws(Malformed) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return UInt64(try byte())
        case 25, 26, 27:
            var value: UInt64 = 0
            for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
            return value
        default: throw Malformed(description: "indefinite or reserved length")
        }
    }

    private mutating func length(_ info: UInt8) throws(Malformed) -> Int {
        let value = try argument(info)
        guard value <= UInt64(bytes.count - offset) else { throw Malformed(description: "length past the end") }
        return Int(value)
    }
}
