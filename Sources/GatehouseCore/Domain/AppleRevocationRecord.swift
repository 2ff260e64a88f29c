import Foundation

/// A pending (or finished) revocation of an Apple refresh token: the durable queue that lets an
/// account deletion complete while Apple is unreachable.
public struct AppleRevocationRecord: Sendable, Equatable {
    /// The queue entry's id (a UUID); also the sealing context `apple-revocation:<id>`.
    public var id: String
    /// The Apple client id the token was issued to.
    public var clientID: String
    /// The refresh token sealed under context `apple-revocation:<id>`; emptied once the entry completes.
    public var sealedRefreshToken: String
    /// When the account deletion queued it; retries give up a fixed time after this.
    public var createdAt: Date
    /// Revocation calls made so far; the retry delay doubles with each (30 s up to an hour).
    public var attempts: Int
    /// When the next try is due.
    public var nextAttemptAt: Date
    /// The last failure, truncated to 500 characters, for operators; `nil` after a success.
    public var lastError: String?
    /// When it was revoked or given up on; `nil` while pending.
    public var completedAt: Date?

    /// A queue entry as stored.
    /// - Parameters:
    ///   - id: The entry's id.
    ///   - clientID: The Apple client id.
    ///   - sealedRefreshToken: The token sealed under `apple-revocation:<id>`.
    ///   - createdAt: When it was queued.
    ///   - attempts: Tries so far; 0 for a new entry.
    ///   - nextAttemptAt: When the next try is due.
    ///   - lastError: The last failure, if any.
    ///   - completedAt: When it finished, `nil` while pending.
    public init(
        id: String,
        clientID: String,
        sealedRefreshToken: String,
        createdAt: Date,
        attempts: Int = 0,
        nextAttemptAt: Date,
        lastError: String? = nil,
        completedAt: Date? = nil
    ) {
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
