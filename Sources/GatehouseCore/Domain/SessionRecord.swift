import Foundation

/// A signed-in session: the `origin_jti` of every token issued in it.
public struct SessionRecord: Sendable, Equatable {
    /// Why a session ended; stored as ``SessionRecord/revokedReason`` for audits and logs.
    public enum EndReason: String, Sendable {
        /// The user signed out of this session.
        case signOut = "sign_out"
        /// The user signed out everywhere.
        case signOutAll = "sign_out_all"
        /// A rotated refresh token was presented again: the chain may be stolen, so the session ends.
        case refreshReuse = "refresh_reuse"
        /// The password was reset with a code: every session ends.
        case passwordReset = "password_reset"
        /// The password was changed: every other session ends.
        case passwordChange = "password_change"
        /// The account was deleted.
        case accountDeleted = "account_deleted"
        /// An unconfirmed sign-up lost its address to a provider-verified owner and was removed.
        case accountClaimed = "account_claimed"
        /// The session reached its absolute lifetime.
        case lifetimeOver = "lifetime_over"
        /// An authorization code issued in it was presented a second time: what the first use issued may be stolen.
        case authorizationCodeReuse = "code_reuse"
        /// An operator disabled the user.
        case userDisabled = "user_disabled"
        /// An operator signed the user out everywhere.
        case adminSignOut = "admin_sign_out"
        /// The user ended it from their list of sessions (`DELETE /me/sessions/{id}`).
        case endedByUser = "ended_by_user"
        /// The custom-claims hook refused (or failed) just after a social or phone sign-in recorded it.
        case claimsHookDenied = "claims_hook_denied"
        /// Apple told us the user stopped using Sign in with Apple with the app (their Apple sessions end).
        case appleConsentRevoked = "apple_consent_revoked"
    }

    /// The session id (a UUIDv7): the `origin_jti` claim of every token issued in it, which liveness checks look up.
    public var id: String
    /// The user (`sub`) the session belongs to.
    public var userID: String
    /// How the user signed in: `password`, `google`, `apple`.
    public var method: String
    /// When the user authenticated (the tokens' `auth_time`); the absolute session lifetime runs from it.
    public var authTime: Date
    /// When the row was created.
    public var createdAt: Date
    /// When the session ended, or `nil` while it is active.
    public var revokedAt: Date?
    /// The ``EndReason`` raw value it ended for, or `nil` while active.
    public var revokedReason: String?
    /// The `User-Agent` of the request that started it (or last refreshed it), cut to
    /// ``ClientInfo/maximumUserAgentLength``; `nil` when none was sent or the session predates it.
    public var userAgent: String?
    /// The client's address made coarse (``ClientInfo/coarseAddress``) when it started or last
    /// refreshed; the full address is never kept with a session.
    public var clientAddress: String?
    /// When its refresh token was last exchanged, or `nil` if never.
    public var lastRefreshedAt: Date?

    /// A session as stored.
    /// - Parameters:
    ///   - id: The session id.
    ///   - userID: The user's `sub`.
    ///   - method: `password`, `google` or `apple`.
    ///   - authTime: When the user authenticated.
    ///   - createdAt: When the row was created.
    ///   - revokedAt: When it ended, `nil` for an active session.
    ///   - revokedReason: Why it ended, `nil` for an active session.
    ///   - userAgent: The client's `User-Agent`, if any.
    ///   - clientAddress: The client's coarse address, if known.
    ///   - lastRefreshedAt: When it was last refreshed, if ever.
    public init(
        id: String,
        userID: String,
        method: String,
        authTime: Date,
        createdAt: Date,
        revokedAt: Date? = nil,
        revokedReason: String? = nil,
        userAgent: String? = nil,
        clientAddress: String? = nil,
        lastRefreshedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.method = method
        self.authTime = authTime
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.revokedReason = revokedReason
        self.userAgent = userAgent
        self.clientAddress = clientAddress
        self.lastRefreshedAt = lastRefreshedAt
    }

    /// `true` until the session is ended; an ended session never becomes active again.
    public var isActive: Bool { revokedAt == nil }
}
