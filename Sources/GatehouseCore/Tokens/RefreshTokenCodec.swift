import Crypto
import Foundation
import GatehouseInfrastructure

/// Refresh tokens: 256 random bits, stored only as SHA-256, with a deterministic successor.
///
/// The successor of a token is an HMAC of the token under a server-held secret
/// (``RefreshSuccessorKey``). A client that lost the response to a refresh can therefore present the
/// same token again within the grace window and receive *the same* successor, although neither token
/// is stored in clear anywhere — and nobody who holds a token can compute the ones after it.
public enum RefreshTokenCodec {
    /// The start of every refresh token we issue (format version 1).
    public static let prefix = "ghr1."
    static let maxLength = 128

    /// A new refresh token: the prefix, then 32 random bytes in base64url (48 characters in all).
    /// - Parameter random: The randomness (a CSPRNG in production).
    /// - Returns: The token.
    public static func generate(_ random: any RandomSource) -> String {
        prefix + Base64URL.encode(random.bytes(32))
    }

    /// `nil` when the value cannot be one of ours (wrong prefix, wrong length, not base64url), so
    /// junk is refused before any store lookup.
    /// - Parameter token: The value a client sent.
    /// - Returns: `token` unchanged when it has our form, else `nil`.
    public static func validate(_ token: String) -> String? {
        guard token.utf8.count <= maxLength, token.hasPrefix(prefix),
            let raw = Base64URL.decode(token.dropFirst(prefix.count)), raw.count == 32
        else { return nil }
        return token
    }

    /// What the store keeps instead of the token: its SHA-256 in base64url. No salt or slow hash is
    /// needed, since the token is 256 random bits.
    /// - Parameter token: A refresh token.
    /// - Returns: The key of the token's row.
    public static func hash(_ token: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(token.utf8))))
    }

    /// The token that replaces `token` at its rotation.
    /// - Parameters:
    ///   - token: A validated refresh token.
    ///   - key: The server-held successor key.
    /// - Returns: A refresh token of the same form.
    public static func successor(of token: String, key: RefreshSuccessorKey) -> String {
        prefix + Base64URL.encode(key.mac(token))
    }
}
