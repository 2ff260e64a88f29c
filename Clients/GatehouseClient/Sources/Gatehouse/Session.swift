import Foundation

/// The tokens of a signed-in user, as the server issued them.
///
/// The client keeps it in its ``TokenStore`` and refreshes it on its own; apps rarely need to read it
/// (call ``GatehouseClient/validAccessToken()`` or ``GatehouseClient/send(_:)`` instead).
public struct Session: Codable, Sendable, Equatable {
    /// The ID token (an RS256 JWT, or ES256 with the server's `GATEHOUSE_TOKEN_ALG=ES256`, with the user's `sub`, `email` and `name`), for code that wants the claims.
    public var idToken: String
    /// The access token to send as `Authorization: Bearer …`; it lives `expires_in` seconds.
    public var accessToken: String
    /// The opaque refresh token; it rotates on every refresh, so always keep the latest one.
    public var refreshToken: String
    /// When the access token expires (from `expires_in` at issue time).
    public var expiresAt: Date
    /// How the session was made, as the client recorded it at sign-in (kept through refreshes); `nil` for a
    /// session stored by an SDK version that did not record it, which counts as not ``SignInMethod/apple``.
    public var signInMethod: SignInMethod?

    /// A session from its parts (tests, or migrating a session kept elsewhere).
    ///
    /// - Parameters:
    ///   - idToken: The ID token.
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    ///   - expiresAt: When the access token expires.
    ///   - signInMethod: How the session was made, when known.
    public init(idToken: String, accessToken: String, refreshToken: String, expiresAt: Date, signInMethod: SignInMethod? = nil) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.signInMethod = signInMethod
    }

    /// Whether the access token expires within `leeway` seconds of `now`.
    ///
    /// - Parameters:
    ///   - now: The current time.
    ///   - leeway: How many seconds before expiry count as expiring.
    /// - Returns: `true` when the access token should be refreshed before use.
    public func isExpiring(at now: Date, leeway: TimeInterval) -> Bool {
        expiresAt.timeIntervalSince(now) <= leeway
    }
}

/// The result of a sign-in: the session and, for Apple, Google and phone, whether the account is new.
public struct SignInResult: Sendable, Equatable {
    /// The session now stored by the client.
    public var session: Session
    /// `true` the first time this Apple or Google identity or this phone number signs in; `nil` for email and password.
    public var isNewUser: Bool?
}
