import Foundation

/// One refresh token of a session's rotation chain, stored only as a hash.
public struct RefreshTokenRecord: Sendable, Equatable {
    public var tokenHash: String
    public var sessionID: String
    public var userID: String
    public var createdAt: Date
    public var expiresAt: Date
    /// When it was exchanged for its successor; a rotated token presented again is reuse.
    public var rotatedAt: Date?
    public var successorHash: String?

    public init(tokenHash: String, sessionID: String, userID: String, createdAt: Date, expiresAt: Date, rotatedAt: Date? = nil, successorHash: String? = nil) {
        self.tokenHash = tokenHash
        self.sessionID = sessionID
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.rotatedAt = rotatedAt
        self.successorHash = successorHash
    }
}
