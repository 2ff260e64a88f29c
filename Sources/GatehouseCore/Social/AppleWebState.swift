import Crypto
import Foundation
import GatehouseInfrastructure

/// The `state` of one Apple web sign-in, sealed (AES-256-GCM under the master key, context
/// `apple-state`) so that starting a flow stores nothing: the app's PKCE challenge, the raw nonce,
/// the expiry and the SHA-256 of the browser-binding secret, which travels in the
/// `__Host-gatehouse-apple` cookie set by `/auth/apple/authorize`.
///
/// Single use is recorded when the state comes back (``SocialRepository/recordAuthorizationStateUse(hash:codeChallenge:expiresAt:at:)``),
/// so only states that were used occupy a row, and only until they expire.
///
/// Layout before sealing: version (1 byte) | expiry, epoch seconds (8, big-endian) | challenge (32) |
/// binding hash (32) | raw nonce (1–256 bytes of printable ASCII). Sealed and base64url-encoded this is
/// 181 characters with the generated nonce and at most 479 with a 256-character one.
struct AppleWebState: Equatable {
    static let context = "apple-state"
    static let version: UInt8 = 1
    /// Longer values are refused before any decryption is tried.
    static let maxSealedLength = 1024

    /// The PKCE challenge (43 characters of base64url) the hand-off code will be bound to.
    var codeChallenge: String
    /// The raw nonce; Apple gets its SHA-256 and the token must carry that.
    var nonce: String
    var expiresAt: Date
    /// SHA-256 of the browser-binding secret.
    var bindingHash: [UInt8]

    /// SHA-256 of the cookie value, the form kept in the state.
    static func bindingHash(of secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(secret.utf8)))
    }

    func seal(with box: SecretBox) throws -> String {
        guard let challenge = Base64URL.decode(codeChallenge), challenge.count == 32, bindingHash.count == 32, !nonce.isEmpty else {
            throw GatehouseError.internalError(cause: "Apple web state has a malformed field")
        }
        var bytes: [UInt8] = [Self.version]
        let expiry = UInt64(bitPattern: expiresAt.epochSeconds)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: expiry >> UInt64(shift))) }
        bytes += challenge
        bytes += bindingHash
        bytes += Array(nonce.utf8)
        return try box.seal(bytes, context: Self.context)
    }

    /// The state, if `sealed` was made by ``seal(with:)`` under this master key; `nil` for anything
    /// else (forged, tampered with, truncated, another purpose's sealed value). Expiry is not checked here.
    static func open(_ sealed: String, with box: SecretBox) -> AppleWebState? {
        guard sealed.utf8.count <= maxSealedLength, let bytes = try? box.open(sealed, context: context),
            bytes.count > 73, bytes[0] == version
        else { return nil }
        var expiry: UInt64 = 0
        for byte in bytes[1..<9] { expiry = expiry << 8 | UInt64(byte) }
        guard let nonce = String(validating: bytes[73...], as: UTF8.self) else { return nil }
        return AppleWebState(
            codeChallenge: Base64URL.encode(bytes[9..<41]),
            nonce: nonce,
            expiresAt: Date(epochSeconds: Int64(bitPattern: expiry)),
            bindingHash: Array(bytes[41..<73])
        )
    }
}
