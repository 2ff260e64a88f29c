/// `POST /auth/apple`: the identity token (and optionally the authorization code) from Sign in with Apple.
public struct AppleSignInRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("identity_token", maxLength: ContractLimits.identityToken),
        .optional("authorization_code", maxLength: ContractLimits.authorizationCode), .optional("nonce", maxLength: ContractLimits.nonce),
        .hint("email"), .optional("full_name", maxLength: ContractLimits.fullName),
    ]
    public let identityToken: String
    public let authorizationCode: String?
    public let nonce: String?
    public let fullName: String?

    enum CodingKeys: String, CodingKey {
        case identityToken = "identity_token"
        case authorizationCode = "authorization_code"
        case nonce
        case fullName = "full_name"
    }
}
