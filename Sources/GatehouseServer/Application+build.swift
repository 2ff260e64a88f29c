import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseStore
import Hummingbird
import Logging
import ServiceLifecycle

/// What tests may replace when building the app. Production uses the defaults.
public struct GatehouseRuntimeOptions: Sendable {
    public var clock: any TimeSource
    public var random: any RandomSource
    /// A mailer to use instead of the configured one (tests capture mail with it).
    public var mailer: (any Mailer)?
    public var logger: Logger?
    /// Called with the bound port once the server listens.
    public var onServerRunning: (@Sendable (Int) async -> Void)?
    /// Whether the providers' key sets are fetched at start and kept fresh in the background (on in
    /// production; tests that script a provider outage turn it off so only requests fetch).
    public var refreshProviderKeysInBackground: Bool

    public init(
        clock: any TimeSource = SystemTimeSource(),
        random: any RandomSource = SystemRandomSource(),
        mailer: (any Mailer)? = nil,
        logger: Logger? = nil,
        onServerRunning: (@Sendable (Int) async -> Void)? = nil,
        refreshProviderKeysInBackground: Bool = true
    ) {
        self.clock = clock
        self.random = random
        self.mailer = mailer
        self.logger = logger
        self.onServerRunning = onServerRunning
        self.refreshProviderKeysInBackground = refreshProviderKeysInBackground
    }
}

/// A built Gatehouse: the Hummingbird application plus what tests and the CLI want to know about it.
public struct GatehouseApplication: Sendable {
    public typealias App = Application<RouterResponder<GatehouseRequestContext>>
    public var app: App
    /// What the router serves, as the controllers registered it.
    public let routes: ServedRoutes
    public let issuer: String
    public let clientID: String
    public let store: SQLStore
    public let provider: any IdentityProvider
    /// Set when Apple credentials are configured.
    public let appleVault: AppleTokenVault?
    /// Where requests hand their mail; a background service delivers it.
    public let mailQueue: MailQueue
}

/// The composition root: `gatehouse serve` and every test build the app here.
public func buildApplication(configuration: GatehouseConfiguration, options: GatehouseRuntimeOptions = .init()) async throws -> GatehouseApplication {
    let logger = options.logger ?? Logger(label: "gatehouse")
    let clock = options.clock
    let random = options.random
    try FileManager.default.createDirectory(
        atPath: configuration.dataDirectory,
        withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700]
    )
    let box = try SecretBox(masterKey: try Bootstrap.masterKey(configuration, logger: logger))
    let location = try StoreLocation(url: configuration.resolvedDatabaseURL)

    let prepared = try await location.withStore(logger: logger) { store in
        try await Bootstrap.prepare(store: store, configuration: configuration, box: box, clock: clock, logger: logger)
    }
    let (store, storeService) = try await location.open(logger: logger)
    logger.info("store ready", metadata: ["store": .string(location.redacted)])

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
    // Its threads start when the service group runs it (below).
    let hashingPool = BlockingWorkPool(
        label: "gatehouse.password-hashing",
        width: configuration.resolvedHashingConcurrency,
        limits: configuration.hashingLimits
    )
    let hasher = ScryptPasswordHasher(parameters: configuration.scrypt, pool: hashingPool, random: random)
    let deliverer: any Mailer =
        try options.mailer
        ?? OutboxMailer(directory: configuration.outboxDirectory, from: configuration.mailFrom, clock: clock, random: random)
    // Requests only queue mail; nothing is written or sent while a client waits.
    let mailQueue = MailQueue(deliverer: deliverer)
    let metrics = GatehouseMetrics()
    let upstream = UpstreamHTTPClient()
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
            mailer: mailQueue,
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
    domainEvents.subscribe(CacheInvalidation(liveness: liveness, profiles: profileCache))
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
        backend: provider,
        limiter: limiter,
        events: metrics,
        domainEvents: domainEvents,
        appleWeb: appleWeb
    )
    let router = Router(context: GatehouseRequestContext.self)
    let servedRoutes = GatehouseRouter(
        passwords: PasswordAuthentication(backend: provider, limiter: limiter, events: metrics, domainEvents: domainEvents),
        sessions: Sessions(backend: provider, limiter: limiter, events: metrics, domainEvents: domainEvents),
        social: social,
        accounts: Accounts(backend: provider, appleVault: socialParts.vault, domainEvents: domainEvents),
        profiles: Profiles(store: store, backend: provider, clock: clock, cache: profileCache, domainEvents: domainEvents),
        metrics: metrics,
        discovery: discovery,
        web: WebPage(configuration: configuration),
        body: RequestBodyReader(limit: configuration.maxBodySize),
        trustedProxies: configuration.trustedProxies
    ).install(on: router)

    var services: [any Service] = []
    if let storeService { services.append(storeService) }
    services.append(hashingPool)
    services.append(
        MaintenanceService(
            store: store,
            keys: SigningKeyManager(secrets: store.secrets, box: box, clock: clock, random: random),
            keyring: keyring,
            clock: clock,
            logger: logger
        )
    )
    if options.refreshProviderKeysInBackground, !upstreamKeySets.isEmpty {
        services.append(ProviderKeyRefreshService(keySets: upstreamKeySets, clock: clock, logger: logger))
    }
    if let vault = socialParts.vault { services.append(AppleRevocationService(vault: vault, logger: logger)) }
    services.append(MailDeliveryService(queue: mailQueue, logger: logger))
    services.append(UpstreamHTTPClientService(upstream: upstream))
    services.append(StoreCloserService(close: { try await store.close() }))

    let onServerRunning = options.onServerRunning
    let app = Application(
        router: router,
        configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
        services: services,
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            logger.info("gatehouse listening", metadata: ["address": .string("\(configuration.host):\(port)"), "issuer": .string(issuer)])
            await onServerRunning?(port)
        },
        logger: logger
    )
    return GatehouseApplication(
        app: app,
        routes: servedRoutes,
        issuer: issuer,
        clientID: configuration.cognito?.clientID ?? prepared.clientID,
        store: store,
        provider: provider,
        appleVault: socialParts.vault,
        mailQueue: mailQueue
    )
}
