/// `POST /auth/resend-code` and `POST /auth/password/forgot`: an email address.
public struct EmailRequest: ContractRequest {
    public static let fields: [ContractField] = [.required("email", maxLength: ContractLimits.email)]
    public let email: String
}
