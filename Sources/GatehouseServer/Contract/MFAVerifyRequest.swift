/// `POST /auth/mfa/verify`: the challenge of an `mfa_required` refusal and a code (authenticator app or recovery).
public struct MFAVerifyRequest: ContractRequest {
    public static let fields: [ContractField] = [.required("mfa_token", maxLength: 1024), .required("code", maxLength: 32)]

    public let mfaToken: String
    public let code: String

    enum CodingKeys: String, CodingKey {
        case mfaToken = "mfa_token"
        case code
    }
}
