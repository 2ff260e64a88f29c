/// `POST /auth/confirm`: an email address and the code mailed to it.
public struct EmailCodeRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("email", maxLength: ContractLimits.email), .required("code", maxLength: ContractLimits.code),
    ]
    public let email: String
    public let code: String
}
