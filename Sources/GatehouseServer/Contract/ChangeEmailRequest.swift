/// `POST /me/email`: the new address, and the account's current password (required when the account
/// has one; see ``StepUp/requireForEmailChange(principal:currentPassword:client:logger:)``).
public struct ChangeEmailRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("email", maxLength: ContractLimits.email), .optional("current_password", maxLength: ContractLimits.password),
    ]
    public let email: String
    public let currentPassword: String?

    enum CodingKeys: String, CodingKey {
        case email
        case currentPassword = "current_password"
    }
}
