/// A bearer token whose signature and claims a strategy checked: what ``Sessions`` turns into the
/// caller once the session's liveness is read. Whether the session still counts is decided once, in
/// ``Sessions/authenticate(bearer:logger:)``, for every provider.
public struct VerifiedBearer: Sendable {
    /// The token's checked claims.
    public var claims: VerifiedAccessToken
    /// The session the token belongs to (the principal's `sessionID`).
    public var sessionID: String
    /// What the session-liveness cache is asked about (the pool: the session id; Cognito: the
    /// session id with the token's issue time).
    public var livenessKey: String

    /// Creates a verified bearer.
    /// - Parameters:
    ///   - claims: The token's checked claims.
    ///   - sessionID: The session the token belongs to.
    ///   - livenessKey: The key its liveness is read under.
    public init(claims: VerifiedAccessToken, sessionID: String, livenessKey: String) {
        self.claims = claims
        self.sessionID = sessionID
        self.livenessKey = livenessKey
    }
}
