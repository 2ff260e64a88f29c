/// `POST /auth/signin`.
public struct SignInRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("email", maxLength: ContractLimits.email), .required("password", maxLength: ContractLimits.password),
    ]
    public let email: String
    public let password: String
}
