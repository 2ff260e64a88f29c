import Crypto
import Foundation
import GatehouseInfrastructure
import _CryptoExtras

/// One of our RSA signing keys: ID tokens and access tokens each have their own, as Cognito does.
public struct SigningKey: Sendable {
    /// Which tokens a key signs; the raw value is the stored `use` and the first part of the `kid`.
    public enum Use: String, Sendable, CaseIterable {
        case idToken = "id"
        case accessToken = "access"
    }

    /// The key id, in every token's header and in the JWKS: `<use>-<epoch seconds>-<random>`.
    public let kid: String
    /// Which tokens this key signs.
    public let use: Use
    /// The RSA-2048 private key.
    public let privateKey: _RSA.Signing.PrivateKey
    /// When the key was made; the newest unretired key of a use is the one that signs.
    public let createdAt: Date
    /// When a newer key took over signing; the key stays published for verification until `expiresAt`.
    public let retiredAt: Date?
    /// After this the key is no longer published or accepted.
    public let expiresAt: Date?
    /// The same key in the system's OpenSSL, when that is available and passed its check (faster).
    let openSSL: RS256OpenSSLSigner?

    /// Wraps a key, loading it into the system's OpenSSL too when that is available.
    /// - Parameters:
    ///   - kid: The key id.
    ///   - use: Which tokens it signs.
    ///   - privateKey: The RSA private key.
    ///   - createdAt: When it was made.
    ///   - retiredAt: When a newer key took over signing; `nil` while it signs.
    ///   - expiresAt: When it stops being published; `nil` for no end yet.
    public init(
        kid: String,
        use: Use,
        privateKey: _RSA.Signing.PrivateKey,
        createdAt: Date,
        retiredAt: Date? = nil,
        expiresAt: Date? = nil
    ) {
        self.kid = kid
        self.use = use
        self.privateKey = privateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.expiresAt = expiresAt
        self.openSSL = SystemOpenSSL.shared?.signer(for: privateKey)
    }

    /// Which library signs with this key: `openssl` or `boringssl`.
    public var signerName: String { openSSL == nil ? "boringssl" : "openssl" }

    /// Generates a fresh RSA-2048 key, neither retired nor expiring.
    /// - Parameters:
    ///   - use: Which tokens it will sign.
    ///   - kid: Its key id.
    ///   - now: Its creation time.
    /// - Returns: The new key.
    /// - Throws: The key generation's error.
    public static func generate(use: Use, kid: String, now: Date) throws -> SigningKey {
        SigningKey(kid: kid, use: use, privateKey: try _RSA.Signing.PrivateKey(keySize: .bits2048), createdAt: now)
    }

    /// The public half, published in the JWKS.
    public var publicKey: _RSA.Signing.PublicKey { privateKey.publicKey }

    /// RS256: PKCS #1 v1.5 over SHA-256, through OpenSSL when it is loaded, else BoringSSL.
    /// - Parameter input: The JWS signing input (`<header>.<payload>`, ASCII).
    /// - Returns: The 256-byte signature.
    /// - Throws: BoringSSL's error when signing fails.
    public func sign(_ input: [UInt8]) throws -> [UInt8] {
        let digest = SHA256.hash(data: input)
        if let openSSL, let signature = openSSL.sign(digest: Array(digest)) { return signature }
        return Array(try privateKey.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation)
    }

    /// The public JWK (`kty`, `kid`, `alg`, `use`, `n`, `e`).
    /// - Returns: The JWK as a JSON object, modulus and exponent in base64url.
    /// - Throws: When the key's primitives cannot be read.
    package func publicJWK() throws -> JSONValue {
        let primitives = try publicKey.getKeyPrimitives()
        return .object([
            "kty": "RSA",
            "kid": .string(kid),
            "alg": "RS256",
            "use": "sig",
            "n": .string(Base64URL.encode(Array(primitives.modulus))),
            "e": .string(Base64URL.encode(Array(primitives.publicExponent))),
        ])
    }
}
