/// `POST /me/phone`: the number to add, and optionally the account's current password, standing in
/// for a fresh sign-in when the session is weaker than the account (step-up).
public struct AddPhoneRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("phone", maxLength: ContractLimits.phone), .optional("current_password", maxLength: ContractLimits.password),
    ]
    public let phone: String
    public let currentPassword: String?

    enum CodingKeys: String, CodingKey {
        case phone
        case currentPassword = "current_password"
    }
}
