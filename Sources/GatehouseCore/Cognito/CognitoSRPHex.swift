/// The number encodings of Cognito SRP: hex on the wire, "padded" bytes inside every hash.
///
/// Clients (amazon-cognito-identity-js `padHex`, Amplify Swift `AmplifyBigIntHelper.getSignedData`,
/// pycognito `pad_hex`) hash a number as its shortest two's-complement big-endian form: the minimal
/// magnitude, with one `0x00` in front when its top bit is set, and `[0x00]` for zero. A server that
/// hashes fixed-width (384-byte) or unpadded numbers computes a different `u`, `x` and key about half
/// the time, so a few sign-ins fail and most succeed.
package enum CognitoSRPHex {
    /// The number written in `hex` as minimal big-endian bytes (zero is `[]`), or `nil` when `hex` is
    /// empty, longer than `maxDigits` or not hexadecimal. Odd lengths and either case are accepted,
    /// as `int(s, 16)` and `BigInteger(s, 16)` accept them.
    package static func magnitude(fromHex hex: String, maxDigits: Int = 1024) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count <= maxDigits else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2 + 1)
        var index = 0
        if digits.count % 2 == 1 {
            guard let low = nibble(digits[0]) else { return nil }
            bytes.append(low)
            index = 1
        }
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return stripped(bytes)
    }

    /// `bytes` without its leading zero bytes.
    package static func stripped(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return [] }
        return first == 0 ? bytes : Array(bytes[first...])
    }

    /// The padded form (`PAD`) of the number whose big-endian bytes are `bytes`, leading zeros or not.
    package static func padded(_ bytes: [UInt8]) -> [UInt8] {
        let magnitude = stripped(bytes)
        guard let top = magnitude.first else { return [0] }
        return top >= 0x80 ? [0] + magnitude : magnitude
    }

    /// Lowercase hex of every byte of `bytes`, leading zeros included.
    package static func hex(_ bytes: [UInt8]) -> String {
        let alphabet = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(alphabet[Int(byte >> 4)])
            out.append(alphabet[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The number as pycognito's `long_to_hex` writes it: lowercase, no leading zeros, `"0"` for zero.
    /// How the server writes `SRP_B`.
    package static func minimalHex(_ bytes: [UInt8]) -> String {
        let digits = hex(stripped(bytes))
        let trimmed = digits.drop(while: { $0 == "0" })
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// The hex of the padded form. How the server must write `SALT`: pycognito hashes the `SALT`
    /// string as it comes (only padding odd lengths or a high first digit), while Amplify and
    /// amazon-cognito-identity-js parse it to an integer and pad that. Only the padded form reads the
    /// same both ways; `"0012…"` would give pycognito a different `x`.
    package static func paddedHex(_ bytes: [UInt8]) -> String {
        hex(padded(bytes))
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
