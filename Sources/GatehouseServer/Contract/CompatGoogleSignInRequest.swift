/// `POST /api/v1/auth/google/signin` (seed 003, Hero365): Google's ID token and the profile hints the
/// seed's client sends. Only the ID token is trusted; `access_token`, `email` and `picture_url` are
/// accepted and never read; the name hints fill the display name when none is known.
public struct CompatGoogleSignInRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("id_token", maxLength: ContractLimits.identityToken), .hint("access_token"),
        .optional("nonce", maxLength: ContractLimits.nonce), .hint("email"), .optionalMayBeEmpty("full_name", maxLength: ContractLimits.fullName),
        .optionalMayBeEmpty("given_name", maxLength: ContractLimits.fullName),
        .optionalMayBeEmpty("family_name", maxLength: ContractLimits.fullName),
        .hint("picture_url"),
    ]
    public let idToken: String
    public let nonce: String?
    public let fullName: String?
    public let givenName: String?
    public let familyName: String?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case nonce
        case fullName = "full_name"
        case givenName = "given_name"
        case familyName = "family_name"
    }

    /// `full_name`, else the given and family names joined by a space, else `nil` (empty strings count
    /// as absent).
    public var nameHint: String? {
        if let fullName, !fullName.isEmpty { return fullName }
        let parts = [givenName, familyName].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
