/// `POST /admin/users`: a user an operator creates. Members the endpoint does not know are refused.
public struct AdminCreateUserRequest: ContractRequest {
    public static let fields: [ContractField] = [
        ContractField(name: "email", presence: .required, maxLength: nil), ContractField(name: "password", presence: .optional, maxLength: nil),
        ContractField(name: "name", presence: .nullable, maxLength: nil), .hint("confirmed"), .hint("email_verified"),
    ]

    /// The address.
    public let email: String
    /// A first password, or `nil`.
    public let password: String?
    /// The display name.
    public let name: String?
    /// Whether the account starts confirmed (`true` when absent).
    public let confirmed: Bool?
    /// Whether the address counts as verified (as `confirmed` when absent).
    public let emailVerified: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email, password, name, confirmed
        case emailVerified = "email_verified"
    }

    /// Decodes the body, refusing members the endpoint does not know.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for an unknown member or a wrong type.
    public init(from decoder: any Decoder) throws {
        try KnownMembers.check(decoder, CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = try container.decode(String.self, forKey: .email)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        confirmed = try container.decodeIfPresent(Bool.self, forKey: .confirmed)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
    }
}
