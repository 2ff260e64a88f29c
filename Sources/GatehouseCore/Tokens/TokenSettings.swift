import Foundation

/// What the tokens we issue look like and how long they live.
public struct TokenSettings: Sendable {
    /// `iss` of every token: the public base URL of this server.
    public var issuer: String
    /// The app client: its id is `aud` of ID tokens, `client_id` of access tokens.
    public var client: AppClient
    /// The app client's id.
    public var clientID: String { client.id }
    /// Seconds an access token is valid (`exp - iat`, and the `expires_in` of the response).
    public var accessTokenLifetime: TimeInterval
    /// Seconds an ID token is valid.
    public var idTokenLifetime: TimeInterval
    /// The `scope` claim of access tokens.
    public var scope: String
    /// Clock skew tolerated on `exp`, `nbf` and `iat` (at most 60 s).
    public var leeway: TimeInterval
    /// Accept ID tokens as bearer tokens on protected endpoints (`GATEHOUSE_ACCEPT_ID_TOKENS`).
    public var acceptIDTokens = false

    /// Creates the settings.
    /// - Parameters:
    ///   - issuer: `iss`: the public base URL of this server.
    ///   - client: The app client, whose id may be settled at start-up.
    ///   - accessTokenLifetime: Seconds (Cognito's default: one hour).
    ///   - idTokenLifetime: Seconds (Cognito's default: one hour).
    ///   - scope: The access tokens' `scope`.
    ///   - leeway: Clock skew in seconds; clamped to 0…60.
    public init(
        issuer: String,
        client: AppClient,
        accessTokenLifetime: TimeInterval = 3600,
        idTokenLifetime: TimeInterval = 3600,
        scope: String = "openid email profile",
        leeway: TimeInterval = 60
    ) {
        self.issuer = issuer
        self.client = client
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.scope = scope
        self.leeway = min(max(leeway, 0), 60)
    }

    /// Creates the settings for a known client id.
    /// - Parameters:
    ///   - issuer: `iss`.
    ///   - clientID: The app client id.
    public init(issuer: String, clientID: String) {
        self.init(issuer: issuer, client: AppClient(id: clientID))
    }
}
