import Foundation

/// What a successful sign-in, refresh or exchange returns.
public struct AuthTokens: Sendable, Equatable {
    /// The ID token: an RS256 JWT shaped like Cognito's (`token_use: "id"`), or Cognito's own.
    public var idToken: String
    /// The access token: an RS256 JWT (`token_use: "access"`) whose `origin_jti` names the session.
    public var accessToken: String
    /// The opaque refresh token (`ghr1.` prefix with the embedded pool); single use, rotated on every refresh.
    public var refreshToken: String
    /// The access token's lifetime in seconds (`expires_in`).
    public var expiresIn: Int
    /// Set for social sign-in and the Apple hand-off; `nil` elsewhere.
    public var isNewUser: Bool?
    /// The embedded pool's session the tokens belong to (their `origin_jti`), for the hosted UI to bind
    /// a browser to; `nil` from Cognito and the hand-off. Never sent to a client.
    public var sessionID: String?
    /// Whom the tokens were issued to (what authenticating the access token would answer), so a
    /// caller answering with the user needs not verify a token it was just given; `nil` for tokens
    /// read back from the Apple hand-off. Never sent to a client.
    public var issuedTo: Principal?

    /// A token set as the client receives it.
    /// - Parameters:
    ///   - idToken: The ID token.
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    ///   - expiresIn: The access token's lifetime in seconds.
    ///   - isNewUser: Whether a social sign-in created the account; `nil` outside social sign-in.
    ///   - sessionID: The embedded pool's session id, if known.
    ///   - issuedTo: Whom the tokens were issued to, if known.
    public init(
        idToken: String,
        accessToken: String,
        refreshToken: String,
        expiresIn: Int,
        isNewUser: Bool? = nil,
        sessionID: String? = nil,
        issuedTo: Principal? = nil
    ) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.isNewUser = isNewUser
        self.sessionID = sessionID
        self.issuedTo = issuedTo
    }
}
