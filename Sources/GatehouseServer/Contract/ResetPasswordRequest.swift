/// `POST /auth/password/reset`.
public struct ResetPasswordRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("email", maxLength: ContractLimits.email), .required("code", maxLength: ContractLimits.code),
        .required("new_password", maxLength: ContractLimits.password),
    ]
    public let email: String
    public let code: String
    public let newPassword: String

    enum CodingKeys: String, CodingKey {
        case email, code
        case newPassword = "new_password"
    }
}
