import Foundation
import GatehouseAPI
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
    /// What ID tokens that still verify may be signed with, the current algorithm first (the keyring's
    /// published keys; Cognito's are RS256).
    var idTokenAlgorithms: @Sendable () -> [String] = { [SigningAlgorithm.rs256.rawValue] }

    var openIDConfiguration: Components.Schemas.OpenIDConfiguration {
        Components.Schemas.OpenIDConfiguration(issuer: issuer, jwksURI: jwksURI, hostedUI: hostedUI, idTokenAlgorithms: idTokenAlgorithms())
    }
}
