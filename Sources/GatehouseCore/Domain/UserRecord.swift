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
    /// Whether the address is proven: by a confirmation code, or by a provider that asserted it verified.
    public var emailVerified: Bool
    /// PHC string; `nil` for accounts that only sign in through a provider.
    public var passwordHash: String?
    /// `false` for a password sign-up whose email is not yet confirmed.
    public var confirmed: Bool
    /// The display name (trimmed, at most 256 scalars, no control characters), if the user gave one.
    public var name: String?
    /// The phone number the user proved with an SMS code, E.164; unique across the pool. Only a
    /// verified number is stored here (a number being added waits in its code).
    public var phone: String?
    /// When the account was created.
    public var createdAt: Date
    /// When any field last changed.
    public var updatedAt: Date
    /// The Cognito SRP verifier of the current password, sealed (``SRPVerifiers``); `nil` until a
    /// password is set or used on a version that makes them.
    public var srpVerifier: SRPVerifier?
    /// When an operator disabled the user, or `nil`: a disabled user gets no session on any path.
    public var disabledAt: Date?

    /// A user as stored.
    /// - Parameters:
    ///   - id: The user's `sub`.
    ///   - email: The address as given, if any.
    ///   - emailKey: The case-folded address when the account owns it, else `nil`.
    ///   - emailVerified: Whether the address is proven.
    ///   - passwordHash: The PHC scrypt hash, or `nil` for provider-only accounts.
    ///   - confirmed: `false` for a password sign-up awaiting its code.
    ///   - name: The display name, if any.
    ///   - phone: The verified phone number, E.164, if any.
    ///   - createdAt: When the account was created.
    ///   - updatedAt: When it last changed.
    ///   - srpVerifier: The sealed SRP verifier of the current password, if any.
    ///   - disabledAt: When an operator disabled the user, `nil` while enabled.
    public init(
        id: String,
        email: String?,
        emailKey: String?,
        emailVerified: Bool,
        passwordHash: String?,
        confirmed: Bool,
        name: String?,
        phone: String? = nil,
        createdAt: Date,
        updatedAt: Date,
        srpVerifier: SRPVerifier? = nil,
        disabledAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.emailKey = emailKey
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.confirmed = confirmed
        self.name = name
        self.phone = phone
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.srpVerifier = srpVerifier
        self.disabledAt = disabledAt
    }

    /// The name a mail to this user may greet them by: only once the address is proven. Until then
    /// the name is text whoever signed up with the address chose, and a mail from the product's own
    /// sender must carry none of it ("Your account will be closed. Call +1-900-…" as a name).
    public var nameForMail: String? { confirmed ? name : nil }
}
