/// `DELETE /me`'s optional body: the account's current password, standing in for a fresh sign-in
/// when the session is weaker than the account (step-up).
public struct StepUpRequest: ContractRequest {
    public static let fields: [ContractField] = [.optional("current_password", maxLength: ContractLimits.password)]
    public let currentPassword: String?

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
    }
}
