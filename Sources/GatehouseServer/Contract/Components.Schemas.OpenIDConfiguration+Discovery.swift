import GatehouseAPI
import GatehouseCore

/// `GET /.well-known/openid-configuration`: the OpenID Connect discovery document.
extension Components.Schemas.OpenIDConfiguration {
    /// The claims our tokens may carry.
    static let claims = [
        "sub", "iss", "aud", "exp", "iat", "auth_time", "jti", "origin_jti", "token_use", "email", "email_verified",
        "cognito:username", "name", "nonce", "client_id", "scope", "username", "amr",
    ]

    /// - Parameters:
    ///   - issuer: The tokens' issuer.
    ///   - jwksURI: Where the issuer's keys are published.
    ///   - hostedUI: Whether the hosted UI's endpoints are served (and so announced).
    ///   - idTokenAlgorithms: What ID tokens that still verify may be signed with, the current algorithm
    ///     first (after a switch, the previous one stays listed until its keys expire).
    init(issuer: String, jwksURI: String, hostedUI: Bool = false, idTokenAlgorithms: [String] = ["RS256"]) {
        self.init(
            issuer: issuer,
            jwksUri: jwksURI,
            responseTypesSupported: hostedUI ? ["code"] : ["id_token"],
            subjectTypesSupported: [._public],
            idTokenSigningAlgValuesSupported: idTokenAlgorithms,
            tokenEndpointAuthMethodsSupported: [.none],
            scopesSupported: hostedUI ? AuthorizationRequest.supportedScopes : ["openid", "email", "profile"],
            claimsSupported: Self.claims,
            authorizationEndpoint: hostedUI ? issuer + "/oauth2/authorize" : nil,
            tokenEndpoint: hostedUI ? issuer + "/oauth2/token" : nil,
            userinfoEndpoint: hostedUI ? issuer + "/oauth2/userInfo" : nil,
            revocationEndpoint: hostedUI ? issuer + "/oauth2/revoke" : nil,
            grantTypesSupported: hostedUI ? ["authorization_code", "refresh_token"] : nil,
            codeChallengeMethodsSupported: hostedUI ? ["S256"] : nil
        )
    }
}
