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

/// A hand-off code: what the app receives through its URL scheme and redeems, with the PKCE verifier,
/// for the tokens (sealed here for at most a minute).
public struct HandoffRecord: Sendable, Equatable {
    /// SHA-256 (base64url) of the hand-off code; the code itself is never stored.
    public var codeHash: String
    /// The PKCE `code_challenge` (S256) the app sent when it started the flow; redemption needs its verifier.
    public var codeChallenge: String
    /// The issued ``AuthTokens``, sealed under context `handoff:<codeHash>`.
    public var sealedTokens: String
    /// When the code was issued.
    public var createdAt: Date
    /// When the code stops redeeming (the configured hand-off lifetime, 60 s by default).
    public var expiresAt: Date

    /// A hand-off as stored.
    /// - Parameters:
    ///   - codeHash: SHA-256 of the code.
    ///   - codeChallenge: The PKCE challenge to check the verifier against.
    ///   - sealedTokens: The sealed tokens.
    ///   - createdAt: When it was issued.
    ///   - expiresAt: When it stops redeeming.
    public init(codeHash: String, codeChallenge: String, sealedTokens: String, createdAt: Date, expiresAt: Date) {
        self.codeHash = codeHash
        self.codeChallenge = codeChallenge
        self.sealedTokens = sealedTokens
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
