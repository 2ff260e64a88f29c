/// `POST /me/mfa/totp/verify`, `DELETE /me/mfa/totp`, `POST /me/mfa/recovery-codes`: a current code.
public struct MFACodeRequest: ContractRequest {
    public static let fields: [ContractField] = [.required("code", maxLength: 32)]

    public let code: String
}
