import Foundation
import GatehouseCore

/// The precomputed discovery documents (they change only when keys rotate).
struct DiscoveryDocuments: Sendable {
    let issuer: String
    let jwksURI: String
    let jwksMaxAge: Int
    /// The JWKS bytes of the moment (`nil` when the provider publishes its own, as Cognito does).
    let jwks: @Sendable () -> [UInt8]?
    let openAPI: [UInt8]
    /// Whether the hosted UI's endpoints are served (and so announced).
    var hostedUI = false
    /// What ID tokens are signed with now (Cognito's, and the default: RS256).
    var tokenAlgorithm = SigningAlgorithm.rs256

    var openIDConfiguration: OpenIDConfigurationResponse {
        OpenIDConfigurationResponse(issuer: issuer, jwksURI: jwksURI, hostedUI: hostedUI, tokenAlgorithm: tokenAlgorithm)
    }
}
