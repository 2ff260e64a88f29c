/// A decoded CBOR item (RFC 8949), as WebAuthn's attestation objects and COSE keys use them. Only
/// definite lengths (WebAuthn requires CTAP2's canonical form), at most 16 levels deep.
enum CBORValue: Sendable, Equatable {
    case unsigned(UInt64)
    case negative(Int64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    case map([(CBORValue, CBORValue)])
    case bool(Bool)
    case null
    case undefined

    static func == (a: CBORValue, b: CBORValue) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)): x == y
        case (.negative(let x), .negative(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.text(let x), .text(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.map(let x), .map(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null), (.undefined, .undefined): true
        default: false
        }
    }

    /// The value for an integer key of a map (COSE keys use small integers).
    subscript(int key: Int64) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0.integer == key }?.1
    }

    /// The value for a text key of a map.
    subscript(text key: String) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == .text(key) }?.1
    }

    var integer: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value
        default: nil
        }
    }

    var byteString: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    var textString: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
