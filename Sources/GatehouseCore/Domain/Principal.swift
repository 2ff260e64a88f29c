import Foundation

/// The caller of a protected endpoint, from a verified access token (or, where enabled, ID token) and a live session.
public struct Principal: Sendable, Equatable {
    /// The user's subject (`sub` claim).
    public var sub: String
    /// The `username` claim (the `sub` when the token has none).
    public var username: String
    /// The session the token belongs to (its `origin_jti`), already checked live.
    public var sessionID: String
    /// The app client the token was issued to (`client_id` claim).
    public var clientID: String
    /// The token's space-separated `scope` claim; empty when absent.
    public var scope: String
    /// The bearer token itself, for providers (Cognito) whose APIs take it.
    public var accessToken: String
    /// `true` when the bearer was an ID token (`GATEHOUSE_ACCEPT_ID_TOKENS`): ``accessToken`` then holds
    /// the ID token, which Cognito's own APIs do not take.
    public var viaIDToken = false

    /// A verified caller.
    /// - Parameters:
    ///   - sub: The user's subject.
    ///   - username: The `username` claim.
    ///   - sessionID: The live session's id.
    ///   - clientID: The app client id.
    ///   - scope: The `scope` claim.
    ///   - accessToken: The bearer token; treat as a secret (never log it).
    ///   - viaIDToken: Whether the bearer was an ID token.
    public init(sub: String, username: String, sessionID: String, clientID: String, scope: String, accessToken: String, viaIDToken: Bool = false) {
        self.sub = sub
        self.username = username
        self.sessionID = sessionID
        self.clientID = clientID
        self.scope = scope
        self.accessToken = accessToken
        self.viaIDToken = viaIDToken
    }
}
