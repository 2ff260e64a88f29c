/// A user an operator creates.
public struct NewUser: Sendable {
    /// The address.
    public var email: EmailAddress
    /// A first password (checked against the policy), or `nil` for an account entered by a reset, a code or a provider.
    public var password: String?
    /// The display name.
    public var name: String?
    /// `false` leaves the account awaiting confirmation (it cannot sign in with a password until the address is proven).
    public var confirmed: Bool
    /// Whether the address counts as verified (the ID token's `email_verified`).
    public var emailVerified: Bool

    /// A new user.
    /// - Parameters:
    ///   - email: The address.
    ///   - password: A first password, or `nil`.
    ///   - name: The display name.
    ///   - confirmed: Whether the account is confirmed.
    ///   - emailVerified: Whether the address counts as verified; by default as `confirmed`.
    public init(email: EmailAddress, password: String?, name: String?, confirmed: Bool, emailVerified: Bool? = nil) {
        self.email = email
        self.password = password
        self.name = name
        self.confirmed = confirmed
        self.emailVerified = emailVerified ?? confirmed
    }
}
