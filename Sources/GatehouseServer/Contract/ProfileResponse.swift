import GatehouseCore

/// `GET /me` and `PATCH /me`: the caller's profile and linked sign-in methods.
public struct ProfileResponse: ContractResponse, Equatable {
    /// A linked sign-in method.
    public struct Identity: Codable, Sendable, Equatable {
        public let provider: String
        public let linkedAt: String
        /// Apple only: whether the address Apple gave is its private relay (`is_private_email`);
        /// omitted when unknown.
        public let isPrivateEmail: Bool?
        /// Apple only: whether Apple forwards mail sent to that relay address (false after Apple's
        /// `email-disabled`); omitted when Apple sent no such notification (forwarding is on).
        public let emailForwarding: Bool?

        enum CodingKeys: String, CodingKey {
            case provider
            case linkedAt = "linked_at"
            case isPrivateEmail = "is_private_email"
            case emailForwarding = "email_forwarding"
        }
    }

    public let sub: String
    public let email: String?
    public let emailVerified: Bool
    public let fullName: String?
    /// The verified phone number (E.164), or `null`.
    public let phone: String?
    /// Whether ``phone`` is verified.
    public let phoneVerified: Bool
    public let identities: [Identity]
    public let createdAt: String
    public let updatedAt: String

    enum CodingKeys: String, CodingKey {
        case sub, email
        case emailVerified = "email_verified"
        case fullName = "full_name"
        case phone
        case phoneVerified = "phone_verified"
        case identities
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The wire form of the core's profile view.
    /// - Parameter view: The profile and its identities.
    public init(_ view: ProfileView) {
        let profile = view.profile
        sub = profile.sub
        email = profile.email
        emailVerified = profile.emailVerified
        fullName = profile.fullName
        phone = profile.phone
        phoneVerified = profile.phoneVerified
        identities = view.identities.map {
            Identity(
                provider: $0.provider,
                linkedAt: ContractTimestamp.string($0.linkedAt),
                isPrivateEmail: $0.isPrivateEmail,
                emailForwarding: $0.emailForwarding
            )
        }
        createdAt = ContractTimestamp.string(profile.createdAt)
        updatedAt = ContractTimestamp.string(profile.updatedAt)
    }

    /// Writes every member, `email` and `full_name` as `null` when unknown (never omitted).
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sub, forKey: .sub)
        try container.encode(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(fullName, forKey: .fullName)
        try container.encode(phone, forKey: .phone)
        try container.encode(phoneVerified, forKey: .phoneVerified)
        try container.encode(identities, forKey: .identities)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
