import Foundation

/// Apple's refresh token for one user and client id, sealed under the master key; kept only to be
/// revoked with Apple when the account is deleted.
public struct AppleTokenRecord: Sendable, Equatable {
    public var userID: String
    public var appleSubject: String
    public var clientID: String
    public var sealedRefreshToken: String
    public var createdAt: Date

    public init(userID: String, appleSubject: String, clientID: String, sealedRefreshToken: String, createdAt: Date) {
        self.userID = userID
        self.appleSubject = appleSubject
        self.clientID = clientID
        self.sealedRefreshToken = sealedRefreshToken
        self.createdAt = createdAt
    }
}

/// A pending (or finished) revocation of an Apple refresh token: the durable queue that lets an
/// account deletion complete while Apple is unreachable.
public struct AppleRevocationRecord: Sendable, Equatable {
    public var id: String
    public var clientID: String
    public var sealedRefreshToken: String
    public var createdAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    public var completedAt: Date?

    public init(id: String, clientID: String, sealedRefreshToken: String, createdAt: Date, attempts: Int = 0, nextAttemptAt: Date, lastError: String? = nil, completedAt: Date? = nil) {
        self.id = id
        self.clientID = clientID
        self.sealedRefreshToken = sealedRefreshToken
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.completedAt = completedAt
    }
}

/// A hand-off code: what the app receives through its URL scheme and redeems, with the PKCE verifier,
/// for the tokens (sealed here for at most a minute).
public struct HandoffRecord: Sendable, Equatable {
    public var codeHash: String
    public var codeChallenge: String
    public var sealedTokens: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(codeHash: String, codeChallenge: String, sealedTokens: String, createdAt: Date, expiresAt: Date) {
        self.codeHash = codeHash
        self.codeChallenge = codeChallenge
        self.sealedTokens = sealedTokens
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
