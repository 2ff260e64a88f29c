import Foundation

/// Apple's refresh token for one user and client id, sealed under the master key; kept only to be
/// revoked with Apple when the account is deleted.
public struct AppleTokenRecord: Sendable, Equatable {
    /// The Gatehouse user (`sub`) the Apple identity is linked to.
    public var userID: String
    /// Apple's `sub` for the user (stable per Apple developer team).
    public var appleSubject: String
    /// The Apple client id (app bundle id or Services ID) the token was issued to; revocation must name it.
    public var clientID: String
    /// The refresh token sealed by ``SecretBox`` under context `apple-refresh:<appleSubject>:<clientID>`.
    public var sealedRefreshToken: String
    /// When the token was stored.
    public var createdAt: Date

    /// A token as stored; one row per Apple subject and client id (a newer token replaces the older).
    /// - Parameters:
    ///   - userID: The Gatehouse user.
    ///   - appleSubject: Apple's `sub`.
    ///   - clientID: The client id the token was issued to.
    ///   - sealedRefreshToken: The sealed refresh token.
    ///   - createdAt: When it was stored.
    public init(userID: String, appleSubject: String, clientID: String, sealedRefreshToken: String, createdAt: Date) {
        self.userID = userID
        self.appleSubject = appleSubject
        self.clientID = clientID
        self.sealedRefreshToken = sealedRefreshToken
        self.createdAt = createdAt
    }
}
