import Crypto
import Foundation
import _CryptoExtras
import GatehouseInfrastructure

/// One of our RSA signing keys: ID tokens and access tokens each have their own, as Cognito does.
public struct SigningKey: Sendable {
    public enum Use: String, Sendable, CaseIterable {
        case idToken = "id"
        case accessToken = "access"
    }

    public let kid: String
    public let use: Use
    public let privateKey: _RSA.Signing.PrivateKey
    public let createdAt: Date
    /// When a newer key took over signing; the key stays published for verification until `expiresAt`.
    public let retiredAt: Date?
    /// After this the key is no longer published or accepted.
    public let expiresAt: Date?
    /// The same key in the system's OpenSSL, when that is available and passed its check (faster).
    let openSSL: RS256OpenSSLSigner?

    public init(kid: String, use: Use, privateKey: _RSA.Signing.PrivateKey, createdAt: Date, retiredAt: Date? = nil, expiresAt: Date? = nil) {
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

    public static func generate(use: Use, kid: String, now: Date) throws -> SigningKey {
        SigningKey(kid: kid, use: use, privateKey: try _RSA.Signing.PrivateKey(keySize: .bits2048), createdAt: now)
    }

    public var publicKey: _RSA.Signing.PublicKey { privateKey.publicKey }

    /// RS256: PKCS #1 v1.5 over SHA-256.
    public func sign(_ input: [UInt8]) throws -> [UInt8] {
        let digest = SHA256.hash(data: input)
        if let openSSL, let signature = openSSL.sign(digest: Array(digest)) { return signature }
        return Array(try privateKey.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation)
    }

    /// The public JWK (`kty`, `kid`, `alg`, `use`, `n`, `e`).
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
