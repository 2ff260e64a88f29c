/// `POST /api/v1/auth/apple/signin` (seed 003, Hero365): Apple's identity token as `id_token`, and
/// the user identifier the app got from Apple, which must equal the token's `sub` when sent.
public struct CompatAppleSignInRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("id_token", maxLength: ContractLimits.identityToken),
        .optional("user_identifier", maxLength: ContractLimits.userIdentifier), .optional("nonce", maxLength: ContractLimits.nonce),
        .optional("authorization_code", maxLength: ContractLimits.authorizationCode), .hint("email"),
        .optional("full_name", maxLength: ContractLimits.fullName),
    ]
    public let idToken: String
    public let userIdentifier: String?
    public let nonce: String?
    public let authorizationCode: String?
    public let fullName: String?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case userIdentifier = "user_identifier"
        case nonce
        case authorizationCode = "authorization_code"
        case fullName = "full_name"
    }
}
