/// `POST /auth/password/change` (authenticated).
public struct ChangePasswordRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("current_password", maxLength: ContractLimits.password), .required("new_password", maxLength: ContractLimits.password),
    ]
    public let currentPassword: String
    public let newPassword: String

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}
