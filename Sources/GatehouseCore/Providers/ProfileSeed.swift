/// The user facts a just-in-time profile starts from.
public struct ProfileSeed: Sendable, Equatable {
    /// The user's address, if the provider knows one.
    public var email: String?
    /// Whether the provider verified it.
    public var emailVerified: Bool
    /// The display name, if any.
    public var name: String?
    /// The verified phone number, E.164, if any.
    public var phone: String?

    /// Creates a seed.
    /// - Parameters:
    ///   - email: The user's address, if known.
    ///   - emailVerified: Whether it is verified.
    ///   - name: The display name, if any.
    public init(email: String?, emailVerified: Bool, name: String?, phone: String? = nil) {
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.phone = phone
    }
}
