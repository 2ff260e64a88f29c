import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseStore
import Hummingbird
import Logging
import ServiceLifecycle

extension GatehouseRuntime {
    /// Wires the use cases, the controllers and the runtime's services over a prepared store.
    /// - Parameters:
    ///   - parts: What `buildApplication` made.
    ///   - store: The open, migrated store.
    ///   - storeService: What must run alongside the store from now on (SQLite's checkpointer).
    ///   - box: The master key's secret box.
    ///   - prepared: The client id, signing keys and refresh-successor key.
    /// - Returns: The runtime and its services, in start order.
    /// - Throws: ``ConfigurationError`` for an unreadable Apple key or a Cognito provider without settings.
    static func assemble(
        _ parts: Parts,
        store: SQLStore,
        storeService: (any Service)?,
        box: SecretBox,
        prepared: Bootstrap.Prepared
    ) throws -> (GatehouseRuntime, [any Service]) {
        let configuration = parts.configuration
        let options = parts.options
        let logger = parts.logger
        let clock = options.clock
        let random = options.random
        let hashingPool = parts.hashingPool
        let mailWakeUp = DeliveryWakeUp()
        let upstream = parts.upstream
        logger.info("store ready", metadata: ["store": .string(parts.storeDescription)])

        let issuer = configuration.resolvedIssuer
        let keyring = Keyring(prepared.keys)
        logger.info("token signing ready", metadata: ["rsa.signer": .string(prepared.keys.accessSigner.signerName)])
        let tokens = TokenService(
            settings: TokenSettings(
                issuer: issuer,
                clientID: prepared.clientID,
                accessTokenLifetime: configuration.accessTokenLifetime,
                idTokenLifetime: configuration.idTokenLifetime,
                scope: configuration.tokenScope
            ),
            keyring: keyring,
            clock: clock,
            random: random,
            cache: VerifiedTokenCache()
        )
        let hasher = ScryptPasswordHasher(parameters: configuration.scrypt, pool: hashingPool, random: random)
        let metrics = GatehouseMetrics()
        let socialParts = try SocialComponents(
            configuration: configuration,
            store: store,
            box: box,
            upstream: upstream,
            clock: clock,
            random: random,
            logger: logger
        )
        let profileCache = ProfileCache(clock: clock, ttl: configuration.sessionCacheTTL)
        // Use cases publish what changed; the one subscriber below keeps this process's caches right.
        let domainEvents = DomainEvents()
        let liveness: CachedSessionLiveness
        let provider: any IdentityProvider
        var upstreamKeySets = [socialParts.google.keySet, socialParts.apple.keySet].compactMap { $0 }
        var discovery = DiscoveryDocuments(
            issuer: issuer,
            jwksURI: issuer + "/.well-known/jwks.json",
            jwksMaxAge: configuration.jwksMaxAge,
            jwks: { keyring.snapshot.jwks },
            openAPI: OpenAPIDocument.bytes
        )
        switch configuration.identityProvider {
        case .embedded:
            liveness = CachedSessionLiveness(source: EmbeddedUserPool.livenessSource(store: store), clock: clock, ttl: configuration.sessionCacheTTL)
            provider = EmbeddedUserPool(
                settings: configuration.pool,
                store: store,
                hasher: hasher,
                tokens: tokens,
                mail: DeliveryEnqueuer(box: box, random: random, wakeUp: mailWakeUp),
                box: box,
                clock: clock,
                random: random,
                liveness: liveness,
                refreshKey: prepared.refreshKey,
                appleVault: socialParts.vault
            )
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
                liveness: liveness,
                keys: RemoteKeySet(
                    issuerName: "cognito",
                    url: settings.jwksURL,
                    source: HTTPJWKSSource(upstream: upstream),
                    clock: clock,
                    logger: logger
                ),
                appleVault: socialParts.vault
            )
            provider = cognito
            upstreamKeySets.append(cognito.keys)
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
        let invalidation = CacheInvalidation(liveness: liveness, profiles: profileCache)
        domainEvents.subscribe(invalidation)
        let keyManager = SigningKeyManager(secrets: store.secrets, box: box, clock: clock, random: random)
        domainEvents.subscribe(SigningKeyReload(keys: keyManager, keyring: keyring, logger: logger))
        // Several instances on one PostgreSQL database: each one's events reach the others' caches
        // (LISTEN/NOTIFY), and while they cannot, the caches stand aside.
        let eventChannel = store.eventChannel(instance: random.token(bytes: 9), logger: logger)
        if let eventChannel {
            eventChannel.connect(onRemote: { domainEvents.applyRemote($0) }, onTrust: { invalidation.setTrusted($0) })
            domainEvents.subscribe(EventBroadcast { eventChannel.send($0) })
        }
        let limiter = RateLimiter(store: store, box: box, clock: clock, settings: configuration.pool.rateLimits)
        let appleWeb = AppleWebFlow(
            settings: configuration.appleServicesID.map {
                AppleWebFlow.Settings(
                    servicesID: $0,
                    appleAPIBase: configuration.appleAPIURL,
                    redirectURI: configuration.resolvedIssuer + "/auth/apple/callback",
                    appURLScheme: configuration.appURLScheme,
                    mode: configuration.appleCallbackMode
                )
            },
            appleEnabled: socialParts.apple.isEnabled,
            store: store,
            box: box,
            clock: clock,
            random: random
        )

        let social = SocialSignIn(
            google: socialParts.google,
            apple: socialParts.apple,
            strategy: provider,
            limiter: limiter,
            events: metrics,
            domainEvents: domainEvents,
            appleWeb: appleWeb
        )
        let passwords = PasswordAuthentication(strategy: provider, limiter: limiter, events: metrics, domainEvents: domainEvents)
        let stepUp = StepUp(strategy: provider, passwords: passwords, clock: clock, maxAge: configuration.stepUpMaxAge)
        let router = Router(context: GatehouseRequestContext.self)
        let servedRoutes = GatehouseRouter(
            passwords: passwords,
            sessions: Sessions(strategy: provider, limiter: limiter, events: metrics, domainEvents: domainEvents),
            social: social,
            phone: PhoneSignIn(
                strategy: provider,
                policy: configuration.smsCountries,
                limiter: limiter,
                events: metrics,
                domainEvents: domainEvents,
                stepUp: stepUp
            ),
            accounts: Accounts(strategy: provider, appleVault: socialParts.vault, domainEvents: domainEvents, stepUp: stepUp),
            profiles: Profiles(store: store, strategy: provider, clock: clock, cache: profileCache, domainEvents: domainEvents),
            metrics: metrics,
            discovery: discovery,
            web: WebPage(configuration: configuration),
            body: RequestBodyReader(limit: configuration.maxBodySize),
            trustedProxies: configuration.trustedProxies,
            compatAPIV1: configuration.compatAPIV1
        ).install(on: router)

        let mailDispatcher = DeliveryDispatcher(
            store: store,
            box: box,
            channels: [
                MailChannel(renderer: try MailTransports.renderer(configuration), transport: parts.mailTransport),
                SMSChannel(appName: configuration.pool.appName, transport: parts.smsTransport),
            ],
            clock: clock,
            random: random,
            settings: configuration.mailDelivery,
            wakeUp: mailWakeUp,
            observer: metrics,
            logger: logger
        )
        var runtimeServices = Self.services(
            storeService: storeService,
            store: store,
            box: box,
            keyring: keyring,
            upstreamKeySets: upstreamKeySets,
            vault: socialParts.vault,
            parts: parts
        )
        runtimeServices.append(DeliveryService(dispatcher: mailDispatcher, logger: logger))
        if let eventChannel { runtimeServices.append(eventChannel) }
        let mailTarget = options.mailTransport == nil ? configuration.mail.redacted : parts.mailTransport.name
        logger.info("mail delivery ready", metadata: ["mail.transport": .string(parts.mailTransport.name), "mail.target": .string(mailTarget)])
        let smsTarget = options.smsTransport == nil ? configuration.sms.redacted : parts.smsTransport.name
        logger.info(
            "sms delivery ready",
            metadata: [
                "sms.transport": .string(parts.smsTransport.name), "sms.target": .string(smsTarget),
                "sms.phone_sign_in": .stringConvertible(configuration.smsCountries.isEnabled),
            ]
        )
        let runtime = GatehouseRuntime(
            responder: router.buildResponder(),
            routes: servedRoutes,
            clientID: configuration.cognito?.clientID ?? prepared.clientID,
            store: store,
            provider: provider,
            appleVault: socialParts.vault,
            mailDispatcher: mailDispatcher,
            eventChannel: eventChannel
        )
        return (runtime, runtimeServices)
    }

    /// The services that need the runtime, in start order (they shut down in reverse).
    private static func services(
        storeService: (any Service)?,
        store: SQLStore,
        box: SecretBox,
        keyring: Keyring,
        upstreamKeySets: [RemoteKeySet],
        vault: AppleTokenVault?,
        parts: Parts
    ) -> [any Service] {
        let clock = parts.options.clock
        var services: [any Service] = []
        if let storeService { services.append(storeService) }
        services.append(
            MaintenanceService(
                store: store,
                keys: SigningKeyManager(secrets: store.secrets, box: box, clock: clock, random: parts.options.random),
                keyring: keyring,
                clock: clock,
                logger: parts.logger
            )
        )
        if parts.options.refreshProviderKeysInBackground, !upstreamKeySets.isEmpty {
            services.append(ProviderKeyRefreshService(keySets: upstreamKeySets, clock: clock, logger: parts.logger))
        }
        if let vault { services.append(AppleRevocationService(vault: vault, logger: parts.logger)) }
        return services
    }
}
