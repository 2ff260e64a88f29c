import GatehouseCore

/// `GET /.well-known/openid-configuration`: the OpenID Connect discovery document.
public struct OpenIDConfigurationResponse: ContractResponse, Equatable {
    public let issuer: String
    public let jwksURI: String
    public let responseTypesSupported: [String]
    public let subjectTypesSupported = ["public"]
    public let idTokenSigningAlgValuesSupported: [String]
    public let tokenEndpointAuthMethodsSupported = ["none"]
    public let scopesSupported: [String]
    /// The hosted UI's endpoints (`GATEHOUSE_HOSTED_UI`); absent when it is off.
    public let authorizationEndpoint: String?
    public let tokenEndpoint: String?
    public let userinfoEndpoint: String?
    public let revocationEndpoint: String?
    public let grantTypesSupported: [String]?
    public let codeChallengeMethodsSupported: [String]?
    public let claimsSupported = [
        "sub", "iss", "aud", "exp", "iat", "auth_time", "jti", "origin_jti", "token_use", "email", "email_verified",
        "cognito:username", "name", "nonce", "client_id", "scope", "username", "amr",
    ]

    enum CodingKeys: String, CodingKey {
        case issuer
        case jwksURI = "jwks_uri"
        case responseTypesSupported = "response_types_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case scopesSupported = "scopes_supported"
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case grantTypesSupported = "grant_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case claimsSupported = "claims_supported"
    }

    /// - Parameters:
    ///   - issuer: The tokens' issuer.
    ///   - jwksURI: Where the issuer's keys are published.
    ///   - hostedUI: Whether the hosted UI's endpoints are served (and so announced).
    ///   - idTokenAlgorithms: What ID tokens that still verify may be signed with, the current algorithm
    ///     first (after a switch, the previous one stays listed until its keys expire).
    public init(issuer: String, jwksURI: String, hostedUI: Bool = false, idTokenAlgorithms: [String] = ["RS256"]) {
        self.issuer = issuer
        idTokenSigningAlgValuesSupported = idTokenAlgorithms
        self.jwksURI = jwksURI
        responseTypesSupported = hostedUI ? ["code"] : ["id_token"]
        scopesSupported = hostedUI ? AuthorizationRequest.supportedScopes : ["openid", "email", "profile"]
        authorizationEndpoint = hostedUI ? issuer + "/oauth2/authorize" : nil
        tokenEndpoint = hostedUI ? issuer + "/oauth2/token" : nil
        userinfoEndpoint = hostedUI ? issuer + "/oauth2/userInfo" : nil
        revocationEndpoint = hostedUI ? issuer + "/oauth2/revoke" : nil
        grantTypesSupported = hostedUI ? ["authorization_code", "refresh_token"] : nil
        codeChallengeMethodsSupported = hostedUI ? ["S256"] : nil
    }
}
