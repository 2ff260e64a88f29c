import Crypto
import Foundation
import GatehouseInfrastructure

/// An admin API key: `gha_` and 43 base64url characters (256 random bits). Only its SHA-256 is stored;
/// a key is high-entropy, so the hash needs no salt or stretching, and its prefix lets secret
/// scanners find a leaked one. No access token, ID token or refresh token has this shape, so a user's
/// credential can never be taken for one.
public enum AdminKey {
    /// What every key starts with.
    public static let prefix = "gha_"
    /// The random part's length in base64url characters.
    static let secretLength = 43

    /// A new key.
    /// - Parameter random: The entropy.
    /// - Returns: The key, shown to the operator once.
    public static func generate(_ random: any RandomSource) -> String {
        prefix + random.token(bytes: 32)
    }

    /// The stored hash of a presented key, or `nil` when it does not have a key's shape.
    /// - Parameter presented: What the caller sent after `Bearer `.
    /// - Returns: The base64url SHA-256 of the key.
    public static func hash(_ presented: String) -> String? {
        let utf8 = presented.utf8
        guard utf8.count == prefix.utf8.count + secretLength, presented.hasPrefix(prefix),
            utf8.dropFirst(prefix.utf8.count).allSatisfy(isKeyCharacter)
        else { return nil }
        return Base64URL.encode(Array(SHA256.hash(data: Array(utf8))))
    }

    /// A key name: 1–64 of `[A-Za-z0-9._-]`.
    /// - Parameter name: The operator's name for the key.
    /// - Returns: `true` when it may be used.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { isKeyCharacter($0) || $0 == UInt8(ascii: ".") }
    }

    /// `[A-Za-z0-9_-]`, base64url's alphabet.
    static func isKeyCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
