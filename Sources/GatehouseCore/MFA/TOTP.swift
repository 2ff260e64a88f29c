import Crypto
import Foundation
import GatehouseInfrastructure

/// Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA-1, 6 digits, 30-second steps, what
/// every authenticator app defaults to.
package enum TOTP {
    /// Digits in a code.
    package static let digits = 6
    /// Seconds in a step.
    package static let period: Int64 = 30
    /// Steps accepted on either side of now (clock skew and a code typed as it turns over).
    package static let window: Int64 = 1

    /// A new 160-bit secret.
    package static func newSecret(_ random: any RandomSource) -> [UInt8] { random.bytes(20) }

    /// The time step of `date`.
    package static func step(at date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) / period }

    /// The code for `step`.
    package static func code(secret: [UInt8], step: Int64) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let value = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let code = String(value % 1_000_000)
        return String(repeating: "0", count: digits - code.count) + code
    }

    /// The step whose code `code` is, within the window around `date`, or `nil`.
    package static func matchingStep(_ code: String, secret: [UInt8], at date: Date) -> Int64? {
        guard code.count == digits, code.allSatisfy(\.isASCIIDigit) else { return nil }
        let now = step(at: date)
        var found: Int64?
        // Every candidate is computed and compared, so the time taken says nothing about which matched.
        for candidate in (now - window)...(now + window) where ConstantTime.equals(Self.code(secret: secret, step: candidate), code) {
            found = max(found ?? candidate, candidate)
        }
        return found
    }

    /// RFC 4648 base32 without padding, as `otpauth://` URIs carry the secret.
    package static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var out = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }

    /// Reads base32 (RFC 4648, case and padding ignored).
    package static func base32Decode(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.uppercased() where character != "=" {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5 | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return out
    }

    /// The `otpauth://totp/` URI an authenticator app scans.
    package static func uri(secret: [UInt8], issuer: String, account: String) -> String {
        var components = URLComponents()
        components.scheme = "otpauth"
        components.host = "totp"
        components.path = "/" + issuer + ":" + account
        components.queryItems = [
            URLQueryItem(name: "secret", value: base32(secret)), URLQueryItem(name: "issuer", value: issuer),
            URLQueryItem(name: "algorithm", value: "SHA1"), URLQueryItem(name: "digits", value: String(digits)),
            URLQueryItem(name: "period", value: String(period)),
        ]
        return components.string ?? ""
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
