import Foundation

/// A signing key as stored: the private key sealed under the master key.
public struct StoredSigningKey: Sendable, Equatable {
    /// The key id published in the JWKS and in every token's `kid` header.
    public var kid: String
    /// What the key signs: `id` (ID tokens) or `access` (access tokens), ``SigningKey/Use``'s raw value.
    public var use: String
    /// The DER private key sealed by ``SecretBox`` under context `signing-key:<kid>`, so a row copied to
    /// another kid does not open.
    public var sealedPrivateKey: String
    /// When the key was generated.
    public var createdAt: Date
    /// When a newer key of the same use replaced it: it stops signing but still verifies. `nil` while active.
    public var retiredAt: Date?
    /// The key's JWS algorithm, ``SigningAlgorithm``'s raw value: `RS256` (an RSA key) or `ES256` (P-256).
    public var algorithm: String
    /// When a retired key stops verifying, leaves the JWKS and may be deleted: its retirement plus an
    /// overlap covering the longest token lifetime and verifiers' JWKS cache time. `nil` while active.
    public var expiresAt: Date?

    /// A signing key as stored.
    /// - Parameters:
    ///   - kid: The key id.
    ///   - use: `id` or `access`.
    ///   - sealedPrivateKey: The sealed DER private key.
    ///   - createdAt: When it was generated.
    ///   - retiredAt: When it stopped signing, or `nil` for the active key.
    ///   - expiresAt: When it stops verifying, or `nil` for the active key.
    ///   - algorithm: `RS256` (the default) or `ES256`.
    public init(
        kid: String,
        use: String,
        sealedPrivateKey: String,
        createdAt: Date,
        retiredAt: Date? = nil,
        expiresAt: Date? = nil,
        algorithm: String = "RS256"
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.use = use
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.expiresAt = expiresAt
    }
}
