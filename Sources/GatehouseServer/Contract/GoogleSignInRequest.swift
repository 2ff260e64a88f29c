/// `POST /auth/google`: the ID token from Google's native SDK.
public struct GoogleSignInRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("id_token", maxLength: ContractLimits.identityToken), .optional("nonce", maxLength: ContractLimits.nonce),
        .hint("email"), .optional("full_name", maxLength: ContractLimits.fullName),
    ]
    public let idToken: String
    public let nonce: String?
    public let fullName: String?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case nonce
        case fullName = "full_name"
    }
}
