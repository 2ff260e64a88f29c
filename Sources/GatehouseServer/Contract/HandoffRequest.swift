/// `POST /auth/handoff`: the one-time code of Apple's web flow and its PKCE verifier.
public struct HandoffRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("code", maxLength: ContractLimits.handoff), .required("code_verifier", maxLength: ContractLimits.handoff),
    ]
    public let code: String
    public let codeVerifier: String

    enum CodingKeys: String, CodingKey {
        case code
        case codeVerifier = "code_verifier"
    }
}
