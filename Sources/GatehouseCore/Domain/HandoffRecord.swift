import Foundation

/// A hand-off code: what the app receives through its URL scheme and redeems, with the PKCE verifier,
/// for the tokens (sealed here for at most a minute).
public struct HandoffRecord: Sendable, Equatable {
    /// SHA-256 (base64url) of the hand-off code; the code itself is never stored.
    public var codeHash: String
    /// The PKCE `code_challenge` (S256) the app sent when it started the flow; redemption needs its verifier.
    public var codeChallenge: String
    /// The issued ``AuthTokens``, sealed under context `handoff:<codeHash>`.
    public var sealedTokens: String
    /// When the code was issued.
    public var createdAt: Date
    /// When the code stops redeeming (the configured hand-off lifetime, 60 s by default).
    public var expiresAt: Date

    /// A hand-off as stored.
    /// - Parameters:
    ///   - codeHash: SHA-256 of the code.
    ///   - codeChallenge: The PKCE challenge to check the verifier against.
    ///   - sealedTokens: The sealed tokens.
    ///   - createdAt: When it was issued.
    ///   - expiresAt: When it stops redeeming.
    public init(codeHash: String, codeChallenge: String, sealedTokens: String, createdAt: Date, expiresAt: Date) {
        self.codeHash = codeHash
        self.codeChallenge = codeChallenge
        self.sealedTokens = sealedTokens
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
