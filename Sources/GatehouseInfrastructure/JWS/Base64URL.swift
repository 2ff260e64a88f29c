import Foundation

/// Unpadded base64url (RFC 4648 §5), strict on decode: no padding, no whitespace, no other alphabet.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = Int8(index) }
        return table
    }()

    package static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = iterator.next()
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            if let b1 {
                out.append(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)])
                if let b2 { out.append(alphabet[Int(b2 & 0x3F)]) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded base64url; `nil` for any character outside the alphabet, a length that cannot
    /// occur, or non-zero trailing bits (so each byte string has exactly one encoding).
    package static func decode<S: StringProtocol>(_ string: S) -> [UInt8]? {
        decode(bytes: Array(string.utf8))
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
