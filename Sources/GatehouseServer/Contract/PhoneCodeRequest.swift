/// `POST /auth/phone/verify` and `POST /me/phone/verify`: a phone number and the code texted to it.
public struct PhoneCodeRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("phone", maxLength: ContractLimits.phone), .required("code", maxLength: ContractLimits.code),
    ]
    public let phone: String
    public let code: String
}
