import Foundation

/// One refresh token of a session's rotation chain, stored only as a hash.
public struct RefreshTokenRecord: Sendable, Equatable {
    /// SHA-256 (base64url) of the token: the token has ≥ 128 random bits, so an unkeyed hash suffices
    /// and a database dump yields no usable token.
    public var tokenHash: String
    /// The session the token belongs to; reuse of a rotated token ends this session.
    public var sessionID: String
    /// The user (`sub`) the session belongs to.
    public var userID: String
    /// When the token was issued.
    public var createdAt: Date
    /// When the token stops refreshing, rotated or not.
    public var expiresAt: Date
    /// When it was exchanged for its successor; a rotated token presented again is reuse.
    public var rotatedAt: Date?
    /// The hash of the token that replaced it: within the grace window, presenting this token again returns
    /// that same successor instead of ending the session (a client that lost the response can retry).
    public var successorHash: String?

    /// A refresh token as stored.
    /// - Parameters:
    ///   - tokenHash: SHA-256 of the token.
    ///   - sessionID: Its session.
    ///   - userID: Its user.
    ///   - createdAt: When it was issued.
    ///   - expiresAt: When it stops refreshing.
    ///   - rotatedAt: When it was rotated, `nil` for the chain's current token.
    ///   - successorHash: Its successor's hash, `nil` until rotated.
    public init(
        tokenHash: String,
        sessionID: String,
        userID: String,
        createdAt: Date,
        expiresAt: Date,
        rotatedAt: Date? = nil,
        successorHash: String? = nil
    ) {
        self.tokenHash = tokenHash
        self.sessionID = sessionID
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.rotatedAt = rotatedAt
        self.successorHash = successorHash
    }
}
