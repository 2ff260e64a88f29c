/// Encodes a ``CBORValue`` in CBOR's definite-length form (the stored COSE keys are written back this way).
enum CBOREncoder {
    static func encode(_ value: CBORValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, to: &out)
        return out
    }

    private static func head(_ major: UInt8, _ value: UInt64, to out: inout [UInt8]) {
        switch value {
        case 0..<24: out.append(major << 5 | UInt8(value))
        case 24...0xFF: out += [major << 5 | 24, UInt8(value)]
        case 0x100...0xFFFF: out += [major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xFF)]
        case 0x1_0000...0xFFFF_FFFF: out += [major << 5 | 26] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        default: out += [major << 5 | 27] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
    }

    private static func write(_ value: CBORValue, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let n): head(0, n, to: &out)
        case .negative(let n): head(1, UInt64(-1 - n), to: &out)
        case .bytes(let b):
            head(2, UInt64(b.count), to: &out)
            out += b
        case .text(let t):
            head(3, UInt64(t.utf8.count), to: &out)
            out += Array(t.utf8)
        case .array(let items):
            head(4, UInt64(items.count), to: &out)
            for item in items { write(item, to: &out) }
        case .map(let pairs):
            head(5, UInt64(pairs.count), to: &out)
            for (key, item) in pairs {
                write(key, to: &out)
                write(item, to: &out)
            }
        case .bool(let b): out.append(b ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        case .undefined: out.append(0xF7)
        }
    }
}
