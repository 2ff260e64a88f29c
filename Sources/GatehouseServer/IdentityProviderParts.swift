import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseStore
import Logging

/// The identity provider strategy `GATEHOUSE_IDENTITY_PROVIDER` names (the embedded pool, or Amazon
/// Cognito) with what differs between the two: how session liveness is read, the discovery
/// documents (Cognito publishes its own keys), and the upstream key sets kept fresh in the background.
struct IdentityProviderParts {
    let provider: any IdentityProvider
    /// Starts the embedded pool's sessions; `nil` with Cognito, which issues its own tokens.
    let sessionIssuer: SessionIssuer?
    let liveness: CachedSessionLiveness
    let discovery: DiscoveryDocuments
    let upstreamKeySets: [RemoteKeySet]

    init(
        configuration: GatehouseConfiguration,
        store: SQLStore,
        hasher: any PasswordHasher,
        tokens: TokenService,
        mail: DeliveryEnqueuer,
        box: SecretBox,
        clock: any TimeSource,
        random: any RandomSource,
        refreshKey: RefreshSuccessorKey,
        srpVerifiers: SRPVerifiers,
        social: SocialComponents,
        upstream: UpstreamHTTPClient,
        keyring: Keyring,
        logger: Logger
    ) throws {
        let issuer = configuration.resolvedIssuer
        let socialKeySets = [social.google.keySet, social.apple.keySet].compactMap { $0 }
        switch configuration.identityProvider {
        case .embedded:
            liveness = CachedSessionLiveness(source: EmbeddedUserPool.livenessSource(store: store), clock: clock, ttl: configuration.sessionCacheTTL)
            let pool = EmbeddedUserPool(
                settings: configuration.pool,
                store: store,
                hasher: hasher,
                tokens: tokens,
                mail: mail,
                box: box,
                clock: clock,
                random: random,
                refreshKey: refreshKey,
                appleVault: social.vault,
                srpVerifiers: srpVerifiers,
                claimsHook: configuration.claimsHook.map { hook in
                    ClaimsHookGate(
                        hook: HTTPClaimsHook(
                            upstream: upstream,
                            url: hook.url,
                            signingKey: hook.secret,
                            clock: clock,
                            random: random
                        ),
                        settings: hook.settings,
                        clock: clock,
                        logger: logger
                    )
                }
            )
            provider = pool
            sessionIssuer = pool.issuer
            discovery = DiscoveryDocuments(
                issuer: issuer,
                jwksURI: issuer + "/.well-known/jwks.json",
                jwksMaxAge: configuration.jwksMaxAge,
                jwks: { keyring.snapshot.jwks },
                openAPI: OpenAPIDocument.bytes,
                hostedUI: configuration.hostedUI,
                idTokenAlgorithms: { keyring.snapshot.idTokenAlgorithms }
            )
            upstreamKeySets = socialKeySets
        case .cognito:
            guard let settings = configuration.cognito else { throw ConfigurationError("The Cognito provider is not configured.") }
            liveness = CachedSessionLiveness(
                source: CognitoIdentityProvider.livenessSource(store: store),
                clock: clock,
                ttl: configuration.sessionCacheTTL
            )
            let cognito = CognitoIdentityProvider(
                settings: settings,
                client: CognitoClient(
                    settings: .init(region: settings.region, endpoint: settings.endpoint, credentials: configuration.awsCredentials),
                    clock: clock,
                    http: { try upstream.client }
                ),
                store: store,
                box: box,
                clock: clock,
                random: random,
                keys: RemoteKeySet(
                    issuerName: "cognito",
                    url: settings.jwksURL,
                    source: HTTPJWKSSource(upstream: upstream),
                    clock: clock,
                    logger: logger
                ),
                appleVault: social.vault
            )
            provider = cognito
            sessionIssuer = nil
            upstreamKeySets = socialKeySets + [cognito.keys]
            // Cognito issues the tokens and publishes their keys; our keys sign nothing here.
            discovery = DiscoveryDocuments(
                issuer: settings.issuer,
                jwksURI: settings.jwksURL,
                jwksMaxAge: configuration.jwksMaxAge,
                jwks: { nil },
                openAPI: OpenAPIDocument.bytes
            )
            logger.info(
                "identity provider: Amazon Cognito",
                metadata: [
                    "cognito.pool": .string(settings.userPoolID), "cognito.region": .string(settings.region),
                    "cognito.endpoint": .string(settings.endpoint), "aws.credentials": .stringConvertible(configuration.awsCredentials != nil),
                ]
            )
        }
    }
}
