import Foundation

/// A user of the embedded pool.
public struct UserRecord: Sendable, Equatable {
    /// The stable identifier: the `sub` of every token, a UUID.
    public var id: String
    /// The address as the user or provider gave it (for mail and display).
    public var email: String?
    /// The case-folded address when this account owns it (a password account, or a provider-verified
    /// email); unique across the pool. `nil` for an address nobody has proven.
    public var emailKey: String?
    public var emailVerified: Bool
    /// PHC string; `nil` for accounts that only sign in through a provider.
    public var passwordHash: String?
    /// `false` for a password sign-up whose email is not yet confirmed.
    public var confirmed: Bool
    public var name: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, email: String?, emailKey: String?, emailVerified: Bool, passwordHash: String?, confirmed: Bool, name: String?, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.email = email
        self.emailKey = emailKey
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.confirmed = confirmed
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
