/// `GET /.well-known/openid-configuration`: the OpenID Connect discovery document.
public struct OpenIDConfigurationResponse: ContractResponse, Equatable {
    public let issuer: String
    public let jwksURI: String
    public let responseTypesSupported = ["id_token"]
    public let subjectTypesSupported = ["public"]
    public let idTokenSigningAlgValuesSupported = ["RS256"]
    public let tokenEndpointAuthMethodsSupported = ["none"]
    public let scopesSupported = ["openid", "email", "profile"]
    public let claimsSupported = [
        "sub", "iss", "aud", "exp", "iat", "auth_time", "jti", "origin_jti", "token_use", "email", "email_verified",
        "cognito:username", "name", "nonce", "client_id", "scope", "username",
    ]

    enum CodingKeys: String, CodingKey {
        case issuer
        case jwksURI = "jwks_uri"
        case responseTypesSupported = "response_types_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case scopesSupported = "scopes_supported"
        case claimsSupported = "claims_supported"
    }

    /// - Parameters:
    ///   - issuer: The tokens' issuer.
    ///   - jwksURI: Where the issuer's keys are published.
    public init(issuer: String, jwksURI: String) {
        self.issuer = issuer
        self.jwksURI = jwksURI
    }
}
