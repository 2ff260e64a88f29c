import Foundation

/// The tokens of a signed-in user, as the server issued them.
public struct Session: Codable, Sendable, Equatable {
    public var idToken: String
    public var accessToken: String
    public var refreshToken: String
    /// When the access token expires (from `expires_in` at issue time).
    public var expiresAt: Date

    public init(idToken: String, accessToken: String, refreshToken: String, expiresAt: Date) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    /// Whether the access token expires within `leeway` seconds of `now`.
    public func isExpiring(at now: Date, leeway: TimeInterval) -> Bool {
        expiresAt.timeIntervalSince(now) <= leeway
    }
}

/// The result of a sign-in: the session and, for Apple and Google, whether the account is new.
public struct SignInResult: Sendable, Equatable {
    public var session: Session
    /// `true` the first time this Apple or Google identity signs in; `nil` for email and password.
    public var isNewUser: Bool?
}
