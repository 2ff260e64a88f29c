/// `POST /me/email/verify`: the code mailed to the new address.
public struct CodeRequest: ContractRequest {
    public static let fields: [ContractField] = [.required("code", maxLength: ContractLimits.code)]

    public let code: String
}
