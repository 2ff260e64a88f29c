import Foundation

/// A nonce for Sign in with Apple or Google: give ``hashed`` to the provider's SDK (it ends up in the
/// ID token) and ``raw`` to Gatehouse, which checks that the token carries SHA-256(raw).
public struct Nonce: Sendable, Equatable {
    /// 32 random bytes, base64url (43 characters). Send this to Gatehouse.
    public let raw: String
    /// Lowercase hex SHA-256 of ``raw``. Pass this to `ASAuthorizationAppleIDRequest.nonce` or GoogleSignIn.
    public let hashed: String

    /// A fresh nonce from the system's CSPRNG. Make one per sign-in attempt and keep it until the
    /// provider answers; reusing one weakens the replay protection it exists for.
    public init() {
        self.init(raw: Base64URL.encode(RandomBytes.make(32)))
    }

    /// The nonce whose raw value is `raw` (tests, or a raw value generated elsewhere).
    ///
    /// - Parameter raw: The value sent to Gatehouse; ``hashed`` is computed from it.
    public init(raw: String) {
        self.raw = raw
        self.hashed = SHA256.hex(SHA256.hash(Array(raw.utf8)))
    }
}

/// A PKCE pair (RFC 7636, S256) for the Apple web hand-off: the challenge goes to
/// `GET /auth/apple/authorize`, the verifier to `POST /auth/handoff`.
public struct PKCE: Sendable, Equatable {
    /// The secret half (43 base64url characters): keep it in memory and send it only to `POST /auth/handoff`,
    /// through ``GatehouseClient/redeemHandoff(code:codeVerifier:)``.
    public let verifier: String
    /// base64url(SHA-256(``verifier``)), the public half that goes into the authorize URL.
    public let challenge: String

    /// A fresh pair from the system's CSPRNG; make one per browser sign-in.
    public init() {
        self.init(verifier: Base64URL.encode(RandomBytes.make(32)))
    }

    /// The pair for a given verifier (tests, or a verifier generated elsewhere).
    ///
    /// - Parameter verifier: 43 to 128 characters of `[A-Za-z0-9-._~]` (RFC 7636); the server refuses others.
    public init(verifier: String) {
        self.verifier = verifier
        self.challenge = Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
    }
}

enum RandomBytes {
    /// From the system's CSPRNG (`SystemRandomNumberGenerator`).
    static func make(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
