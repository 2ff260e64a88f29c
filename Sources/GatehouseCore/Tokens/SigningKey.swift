import Crypto
import Foundation
import GatehouseInfrastructure
import _CryptoExtras

/// One of our signing keys: ID tokens and access tokens each have their own, as Cognito does. A key is
/// RSA-2048 (RS256, the default) or P-256 (ES256, `GATEHOUSE_TOKEN_ALG=ES256`); its algorithm is fixed
/// for its life and travels with it into the JWKS and every token header it signs.
public struct SigningKey: Sendable {
    /// Which tokens a key signs; the raw value is the stored `use` and the first part of the `kid`.
    public enum Use: String, Sendable, CaseIterable {
        case idToken = "id"
        case accessToken = "access"
    }

    /// The private key of either algorithm (with its OpenSSL copy for RSA, when loaded).
    enum Material: Sendable {
        case rsa(_RSA.Signing.PrivateKey, RS256OpenSSLSigner?)
        case p256(P256.Signing.PrivateKey)
    }

    /// The key id, in every token's header and in the JWKS: `<use>-<epoch seconds>-<random>`.
    public let kid: String
    /// Which tokens this key signs.
    public let use: Use
    /// When the key was made; the newest unretired key of a use is the one that signs.
    public let createdAt: Date
    /// When a newer key took over signing; the key stays published for verification until `expiresAt`.
    public let retiredAt: Date?
    /// After this the key is no longer published or accepted.
    public let expiresAt: Date?
    let material: Material

    /// Wraps an RSA key (RS256), loading it into the system's OpenSSL too when that is available.
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
        self.init(kid: kid, use: use, material: .rsa(privateKey, SystemOpenSSL.shared?.signer(for: privateKey)), createdAt, retiredAt, expiresAt)
    }

    /// Wraps a P-256 key (ES256).
    /// - Parameters:
    ///   - kid: The key id.
    ///   - use: Which tokens it signs.
    ///   - p256PrivateKey: The P-256 private key.
    ///   - createdAt: When it was made.
    ///   - retiredAt: When a newer key took over signing; `nil` while it signs.
    ///   - expiresAt: When it stops being published; `nil` for no end yet.
    public init(
        kid: String,
        use: Use,
        p256PrivateKey: P256.Signing.PrivateKey,
        createdAt: Date,
        retiredAt: Date? = nil,
        expiresAt: Date? = nil
    ) {
        self.init(kid: kid, use: use, material: .p256(p256PrivateKey), createdAt, retiredAt, expiresAt)
    }

    private init(kid: String, use: Use, material: Material, _ createdAt: Date, _ retiredAt: Date?, _ expiresAt: Date?) {
        self.kid = kid
        self.use = use
        self.material = material
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.expiresAt = expiresAt
    }

    /// The key's JWS algorithm.
    public var algorithm: SigningAlgorithm {
        switch material {
        case .rsa: .rs256
        case .p256: .es256
        }
    }

    /// The RSA key in the system's OpenSSL, when it is an RSA key and that is available and passed its check (faster).
    var openSSL: RS256OpenSSLSigner? {
        if case .rsa(_, let signer) = material { return signer }
        return nil
    }

    /// Which library signs with this key: `openssl` or `boringssl` (always, for ES256).
    public var signerName: String { openSSL == nil ? "boringssl" : "openssl" }

    /// Generates a fresh key, neither retired nor expiring: RSA-2048 for RS256, P-256 for ES256.
    /// - Parameters:
    ///   - use: Which tokens it will sign.
    ///   - kid: Its key id.
    ///   - now: Its creation time.
    ///   - algorithm: RS256 (the default) or ES256.
    /// - Returns: The new key.
    /// - Throws: The key generation's error.
    public static func generate(use: Use, kid: String, now: Date, algorithm: SigningAlgorithm = .rs256) throws -> SigningKey {
        switch algorithm {
        case .rs256: SigningKey(kid: kid, use: use, privateKey: try _RSA.Signing.PrivateKey(keySize: .bits2048), createdAt: now)
        case .es256: SigningKey(kid: kid, use: use, p256PrivateKey: P256.Signing.PrivateKey(), createdAt: now)
        }
    }

    /// Reads a key back from its ``derRepresentation``.
    /// - Parameters:
    ///   - der: The DER private key (PKCS #1 for RSA, SEC 1 for P-256).
    ///   - algorithm: The algorithm it was stored with.
    ///   - kid: The key id.
    ///   - use: Which tokens it signs.
    ///   - createdAt: When it was made.
    ///   - retiredAt: When it stopped signing.
    ///   - expiresAt: When it stops being published.
    /// - Returns: The key.
    /// - Throws: The DER parser's error when the bytes are not a key of `algorithm`.
    public static func load(
        der: [UInt8],
        algorithm: SigningAlgorithm,
        kid: String,
        use: Use,
        createdAt: Date,
        retiredAt: Date?,
        expiresAt: Date?
    ) throws -> SigningKey {
        switch algorithm {
        case .rs256:
            let key = try _RSA.Signing.PrivateKey(derRepresentation: der)
            return SigningKey(kid: kid, use: use, privateKey: key, createdAt: createdAt, retiredAt: retiredAt, expiresAt: expiresAt)
        case .es256:
            let key = try P256.Signing.PrivateKey(derRepresentation: der)
            return SigningKey(kid: kid, use: use, p256PrivateKey: key, createdAt: createdAt, retiredAt: retiredAt, expiresAt: expiresAt)
        }
    }

    /// The private key in DER, as it is sealed into the store.
    public var derRepresentation: [UInt8] {
        switch material {
        case .rsa(let key, _): Array(key.derRepresentation)
        case .p256(let key): Array(key.derRepresentation)
        }
    }

    /// The RSA public half, for an RS256 key; `nil` for an ES256 key.
    public var rsaPublicKey: _RSA.Signing.PublicKey? {
        if case .rsa(let key, _) = material { return key.publicKey }
        return nil
    }

    /// The public half as a verifier holds it, pinned to this key's algorithm.
    package var verificationKey: JWSKeySet.Key {
        switch material {
        case .rsa(let key, _): JWSKeySet.Key(kid: kid, publicKey: key.publicKey)
        case .p256(let key): JWSKeySet.Key(kid: kid, p256: key.publicKey)
        }
    }

    /// Signs a JWS signing input with this key's algorithm. RS256: PKCS #1 v1.5 over SHA-256, through
    /// OpenSSL when it is loaded, else BoringSSL. ES256: ECDSA P-256 over SHA-256 (BoringSSL), as `r || s`.
    /// - Parameter input: The JWS signing input (`<header>.<payload>`, ASCII).
    /// - Returns: The signature: 256 bytes (RS256) or 64 bytes (ES256).
    /// - Throws: BoringSSL's error when signing fails.
    public func sign(_ input: [UInt8]) throws -> [UInt8] {
        let digest = SHA256.hash(data: input)
        switch material {
        case .rsa(let key, let openSSL):
            if let openSSL, let signature = openSSL.sign(digest: Array(digest)) { return signature }
            return Array(try key.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation)
        case .p256(let key):
            return Array(try key.signature(for: digest).rawRepresentation)
        }
    }

    /// The public JWK: `kty: RSA` with `n`, `e` (RS256), or `kty: EC`, `crv: P-256` with `x`, `y` (ES256);
    /// both with `kid`, `alg` and `use: sig`.
    /// - Returns: The JWK as a JSON object, numbers in base64url.
    /// - Throws: When the key's primitives cannot be read.
    package func publicJWK() throws -> JSONValue {
        switch material {
        case .rsa(let key, _):
            let primitives = try key.publicKey.getKeyPrimitives()
            return .object([
                "kty": "RSA",
                "kid": .string(kid),
                "alg": "RS256",
                "use": "sig",
                "n": .string(Base64URL.encode(Array(primitives.modulus))),
                "e": .string(Base64URL.encode(Array(primitives.publicExponent))),
            ])
        case .p256(let key):
            let point = Array(key.publicKey.rawRepresentation)  // x || y, 32 bytes each
            return .object([
                "kty": "EC",
                "crv": "P-256",
                "kid": .string(kid),
                "alg": "ES256",
                "use": "sig",
                "x": .string(Base64URL.encode(Array(point[0..<32]))),
                "y": .string(Base64URL.encode(Array(point[32..<64]))),
            ])
        }
    }
}
