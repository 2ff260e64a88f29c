/// `POST /auth/phone/send`, `POST /me/phone` and the seed's `POST /api/v1/auth/otp/send`: a phone
/// number in international form.
public struct PhoneRequest: ContractRequest {
    public static let fields: [ContractField] = [.required("phone", maxLength: ContractLimits.phone)]
    public let phone: String
}
