import Foundation
import GatehouseCore
import GatehouseInfrastructure

/// The precomputed discovery documents (they change only when keys rotate).
struct DiscoveryDocuments: Sendable {
    let issuer: String
    let jwksURI: String
    let jwksMaxAge: Int
    /// The JWKS bytes of the moment (`nil` when the provider publishes its own, as Cognito does).
    let jwks: @Sendable () -> [UInt8]?
    let openAPI: [UInt8]

    var openIDConfiguration: JSONValue {
        [
            "issuer": .string(issuer),
            "jwks_uri": .string(jwksURI),
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": ["openid", "email", "profile"],
            "claims_supported": [
                "sub", "iss", "aud", "exp", "iat", "auth_time", "jti", "origin_jti", "token_use", "email", "email_verified",
                "cognito:username", "name", "nonce", "client_id", "scope", "username",
            ],
        ]
    }
}
