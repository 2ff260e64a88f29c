import Foundation

/// A signed-in session: the `origin_jti` of every token issued in it.
public struct SessionRecord: Sendable, Equatable {
    public enum EndReason: String, Sendable {
        case signOut = "sign_out"
        case signOutAll = "sign_out_all"
        case refreshReuse = "refresh_reuse"
        case passwordReset = "password_reset"
        case passwordChange = "password_change"
        case accountDeleted = "account_deleted"
        case accountClaimed = "account_claimed"
        /// The session reached its absolute lifetime.
        case lifetimeOver = "lifetime_over"
    }

    public var id: String
    public var userID: String
    /// How the user signed in: `password`, `google`, `apple`.
    public var method: String
    public var authTime: Date
    public var createdAt: Date
    public var revokedAt: Date?
    public var revokedReason: String?

    public init(id: String, userID: String, method: String, authTime: Date, createdAt: Date, revokedAt: Date? = nil, revokedReason: String? = nil) {
        self.id = id
        self.userID = userID
        self.method = method
        self.authTime = authTime
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.revokedReason = revokedReason
    }

    public var isActive: Bool { revokedAt == nil }
}
