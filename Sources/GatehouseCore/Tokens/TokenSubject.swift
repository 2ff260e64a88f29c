import Foundation

/// The user facts that go into an ID token.
public struct TokenSubject: Sendable, Equatable {
    /// The user's id: the ID token's `sub` and `cognito:username`.
    public var sub: String
    /// The `email` claim; left out of the token when `nil`.
    public var email: String?
    /// The `email_verified` claim.
    public var emailVerified: Bool
    /// The `name` claim; left out of the token when `nil`.
    public var name: String?
    /// The `phone_number` claim (with `phone_number_verified: true`, as only verified numbers are
    /// kept); both left out when `nil`.
    public var phone: String?

    /// Creates a subject from its claims.
    /// - Parameters:
    ///   - sub: The user's id.
    ///   - email: The address, or `nil` for none.
    ///   - emailVerified: Whether the address was confirmed.
    ///   - name: The display name, or `nil` for none.
    ///   - phone: The verified phone number, or `nil` for none.
    public init(sub: String, email: String?, emailVerified: Bool, name: String?, phone: String? = nil) {
        self.sub = sub
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.phone = phone
    }

    /// The claims of a stored user.
    /// - Parameter user: The user the tokens are for.
    public init(_ user: UserRecord) {
        self.init(sub: user.id, email: user.email, emailVerified: user.emailVerified, name: user.name, phone: user.phone)
    }
}
