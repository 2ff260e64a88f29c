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
    static func encode(_ bytes: [UInt8]) -> String { encode(Data(bytes)) }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text (RFC 4648 §5), with or without its `=` padding; `nil` for anything else
    /// (standard base64's `+` and `/`, white space, a length no encoding has).
    static func decode(_ text: String) -> Data? {
        var body = Substring(text)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard body.utf8.allSatisfy({ $0.isBase64URLDigit }) else { return nil }
        var base64 = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

extension UInt8 {
    /// Whether the byte is one of base64url's 64 digits (`A-Z`, `a-z`, `0-9`, `-`, `_`).
    fileprivate var isBase64URLDigit: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) || self == 0x2D || self == 0x5F
    }
}
