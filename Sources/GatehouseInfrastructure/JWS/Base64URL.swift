import Foundation

/// Unpadded base64url (RFC 4648 §5), strict on decode: no padding, no whitespace, no other alphabet.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = Int8(index) }
        return table
    }()

    /// Encodes bytes.
    /// - Parameter bytes: Any bytes.
    /// - Returns: Their unpadded base64url text.
    package static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let encoded = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) { return encoded }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Encodes bytes. Concrete (like the `String` decode) because callers in other modules get the
    /// generic entry point unspecialised (iterator and collection witnesses per byte: 3% of a token
    /// exchange's CPU before this overload existed).
    /// - Parameter bytes: Any bytes.
    /// - Returns: Their unpadded base64url text.
    package static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encode(buffer: $0) }
    }

    private static func encode(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = bytes.count
        let length = (count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: max(length, 1)) { out in
            var o = 0
            var i = 0
            while i + 2 < count {
                let b0 = bytes[i]
                let b1 = bytes[i + 1]
                let b2 = bytes[i + 2]
                out[o] = alphabet[Int(b0 >> 2)]
                out[o + 1] = alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)]
                out[o + 2] = alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)]
                out[o + 3] = alphabet[Int(b2 & 0x3F)]
                i += 3
                o += 4
            }
            if i < count {
                let b0 = bytes[i]
                let b1: UInt8 = i + 1 < count ? bytes[i + 1] : 0
                out[o] = alphabet[Int(b0 >> 2)]
                out[o + 1] = alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)]
                o += 2
                if i + 1 < count {
                    out[o] = alphabet[Int((b1 & 0x0F) << 2)]
                    o += 1
                }
            }
            return o
        }
    }

    /// Decodes unpadded base64url; `nil` for any character outside the alphabet, a length that cannot
    /// occur, or non-zero trailing bits (so each byte string has exactly one encoding).
    package static func decode<S: StringProtocol>(_ string: S) -> [UInt8]? {
        decode(bytes: Array(string.utf8))
    }

    /// Decodes unpadded base64url (concrete, for callers in other modules; see the `[UInt8]` encode).
    /// - Parameter string: The text.
    /// - Returns: The bytes, or nil as for the generic overload.
    package static func decode(_ string: String) -> [UInt8]? {
        var string = string
        return string.withUTF8 { decode(bytes: $0) }
    }

    package static func decode(bytes input: some Collection<UInt8>) -> [UInt8]? {
        let count = input.count
        if count % 4 == 1 { return nil }
        var out = [UInt8]()
        out.reserveCapacity(count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for char in input {
            let value = reverse[Int(char)]
            if value < 0 { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        if buffer != 0 { return nil }
        return out
    }
}
