/// `POST /api/v1/auth/apple/signin` (seed 003, Hero365): Apple's identity token as `id_token`, and
/// the user identifier the app got from Apple, which must equal the token's `sub` when sent.
public struct CompatAppleSignInRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("id_token", maxLength: ContractLimits.identityToken),
        .optional("user_identifier", maxLength: ContractLimits.userIdentifier), .optional("nonce", maxLength: ContractLimits.nonce),
        .optional("authorization_code", maxLength: ContractLimits.authorizationCode), .hint("email"),
        .optionalMayBeEmpty("full_name", maxLength: ContractLimits.fullName),
    ]
    public let idToken: String
    public let userIdentifier: String?
    public let nonce: String?
    public let authorizationCode: String?
    /// The name hint as sent; see ``nameHint``.
    public let fullName: String?

    /// `full_name` unless empty (the seed's app sends `""` when Apple gives no name, as it does after
    /// the first sign-in).
    public var nameHint: String? { fullName?.isEmpty == false ? fullName : nil }

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case userIdentifier = "user_identifier"
        case nonce
        case authorizationCode = "authorization_code"
        case fullName = "full_name"
    }
}
