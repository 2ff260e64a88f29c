/// `POST /auth/signup`.
public struct SignUpRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("email", maxLength: ContractLimits.email), .required("password", maxLength: ContractLimits.password),
        .optional("full_name", maxLength: ContractLimits.fullName),
    ]
    public let email: String
    public let password: String
    public let fullName: String?

    enum CodingKeys: String, CodingKey {
        case email, password
        case fullName = "full_name"
    }
}
