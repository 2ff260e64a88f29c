import Foundation

/// The claims of an access token that passed every check.
public struct VerifiedAccessToken: Sendable, Equatable {
    /// The user's id (`sub`).
    public var sub: String
    /// `username`; `sub` when the token has none.
    public var username: String
    /// The app client the token was issued to (`client_id`).
    public var clientID: String
    /// The session the token belongs to (`origin_jti`): what the revocation check looks up.
    public var originJTI: String?
    /// The token's own id (`jti`), if it has one.
    public var jti: String?
    /// The space-separated `scope`; empty when absent.
    public var scope: String
    /// `iat`, if present.
    public var issuedAt: Date?
    /// `exp`.
    public var expiresAt: Date
    /// `true` for an ID token accepted as a bearer (``AccessTokenVerifier/acceptIDTokens``).
    public var isIDToken: Bool = false
}
