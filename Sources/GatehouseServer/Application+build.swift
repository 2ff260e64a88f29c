import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseStore
import Hummingbird
import Logging
import ServiceLifecycle

/// The composition root: `gatehouse serve` builds the app here.
/// - Parameters:
///   - configuration: The server's configuration.
///   - logger: Where the server logs; `gatehouse` by default.
/// - Returns: The application, not yet running.
/// - Throws: ``ConfigurationError`` for a database URL the store does not understand, an unreadable
///   Apple key, mail templates that do not render, or a Cognito provider without settings.
public func buildApplication(configuration: GatehouseConfiguration, logger: Logger? = nil) async throws -> GatehouseApplication {
    try await buildApplication(configuration: configuration, overrides: ApplicationOverrides(logger: logger))
}

/// The composition root, with what the package's tests replace. Every object is made here, without I/O; what
/// needs the disk or the database (the master key, the open store, the client id, the signing keys, the refresh
/// successor key) is a handle that ``StartUp`` fills in `beforeServerStarts`, inside `app.run()`, before the
/// server binds, so a misconfiguration stops the run before any request is answered. The services that use
/// those handles wait for start-up (``AfterStartUp``).
/// - Parameters:
///   - configuration: The server's configuration.
///   - overrides: What tests replace.
/// - Returns: The application, not yet running.
/// - Throws: As ``buildApplication(configuration:logger:)``.
package func buildApplication(configuration: GatehouseConfiguration, overrides: ApplicationOverrides) async throws -> GatehouseApplication {
    let logger = overrides.logger ?? Logger(label: "gatehouse")
    let clock = overrides.clock
    let random = overrides.random
    let issuer = configuration.resolvedIssuer

    // Handles filled in at start-up.
    let location = try StoreLocation(url: configuration.resolvedDatabaseURL)
    let store = try SQLStore(location: location, logger: logger)
    let box = SecretBox()
    let client = AppClient()
    let pool = UserPoolID()
    let keyring = Keyring()
    let refreshKey = RefreshSuccessorKey()

    // Services that need nothing from start-up; their threads and connections start when they run.
    let hashingPool = BlockingWorkPool(
        label: "gatehouse.password-hashing",
        width: configuration.resolvedHashingConcurrency,
        limits: configuration.hashingLimits
    )
    let upstream = UpstreamHTTPClient()
    let mailTransport = overrides.mailTransport ?? MailTransports.make(configuration, upstream: upstream, logger: logger)
    let smsTransport = overrides.smsTransport ?? SMSTransports.make(configuration, upstream: upstream, logger: logger)
    let deliveryWakeUp = DeliveryWakeUp()
    let webhookAddresses = WebhookAddresses(allowPrivate: configuration.webhookAllowPrivate)
    let webhooks = Webhooks(store: store, box: box, addresses: webhookAddresses, clock: clock, random: random)

    // The core: tokens, the identity provider strategy, the use cases.
    var tokenSettings = TokenSettings(
        issuer: issuer,
        client: client,
        accessTokenLifetime: configuration.accessTokenLifetime,
        idTokenLifetime: configuration.idTokenLifetime,
        scope: configuration.tokenScope
    )
    tokenSettings.acceptIDTokens = configuration.acceptIDTokens
    let tokens = TokenService(
        settings: tokenSettings,
        keyring: keyring,
        clock: clock,
        random: random,
        cache: VerifiedTokenCache()
    )
    let metrics = GatehouseMetrics()
    let social = try SocialComponents(
        configuration: configuration,
        store: store,
        box: box,
        upstream: upstream,
        clock: clock,
        random: random,
        logger: logger
    )
    let scrypt = ScryptPasswordHasher(parameters: configuration.scrypt, pool: hashingPool, random: random)
    let srpVerifiers = SRPVerifiers(pool: pool, box: box, random: random)
    let identity = try IdentityProviderParts(
        configuration: configuration,
        store: store,
        hasher: overrides.hasher.map { $0(scrypt) } ?? scrypt,
        tokens: tokens,
        mail: DeliveryEnqueuer(box: box, random: random, wakeUp: deliveryWakeUp),
        box: box,
        clock: clock,
        random: random,
        refreshKey: refreshKey,
        srpVerifiers: srpVerifiers,
        social: social,
        upstream: upstream,
        keyring: keyring,
        logger: logger
    )
    let profileCache = ProfileCache(clock: clock, ttl: configuration.sessionCacheTTL)
    // Use cases publish what changed; the one subscriber below keeps this process's caches right.
    let domainEvents = DomainEvents()
    let invalidation = CacheInvalidation(liveness: identity.liveness, profiles: profileCache)
    domainEvents.subscribe(invalidation)
    let keyManager = SigningKeyManager(secrets: store.secrets, box: box, clock: clock, random: random, algorithm: configuration.tokenAlgorithm)
    domainEvents.subscribe(SigningKeyReload(keys: keyManager, keyring: keyring, logger: logger))
    // Several instances on one PostgreSQL database: each one's events reach the others' caches
    // (LISTEN/NOTIFY); while they cannot, the caches stand aside, and the keys reload when they can again.
    let eventChannel = store.eventChannel(instance: random.token(bytes: 9), logger: logger)
    if let eventChannel {
        eventChannel.connect(onRemote: { domainEvents.applyRemote($0) }, onTrust: { domainEvents.setRemoteEventsArrive($0) })
        domainEvents.subscribe(EventBroadcast { eventChannel.send($0) })
    }
    let limiter = RateLimiter(store: store, box: box, clock: clock, settings: configuration.pool.rateLimits)
    let signInEvents = AuditedAuthEvents(metrics: metrics, store: store, clock: clock, random: random, logger: logger)
    let appleWeb = AppleWebFlow(
        settings: configuration.appleServicesID.map {
            AppleWebFlow.Settings(
                servicesID: $0,
                appleAPIBase: configuration.appleAPIURL,
                redirectURI: issuer + "/auth/apple/callback",
                appURLScheme: configuration.appURLScheme,
                mode: configuration.appleCallbackMode
            )
        },
        appleEnabled: social.apple.isEnabled,
        store: store,
        box: box,
        clock: clock,
        random: random
    )
    let (provider, issuing) = (identity.provider, identity.sessionIssuer)
    let passwords = PasswordAuthentication(strategy: provider, issuer: issuing, limiter: limiter, events: signInEvents, domainEvents: domainEvents)
    let stepUp = StepUp(strategy: provider, passwords: passwords, clock: clock, maxAge: configuration.stepUpMaxAge)
    let accounts = Accounts(strategy: provider, store: store, appleVault: social.vault, domainEvents: domainEvents, stepUp: stepUp)
    let passkeys = Passkeys(
        settings: configuration.passkeys.settings(issuer: issuer, appName: configuration.pool.appName),
        strategy: provider as? any PasskeyStrategy,
        issuer: issuing,
        store: store,
        box: box,
        clock: clock,
        random: random,
        limiter: limiter,
        events: signInEvents
    )
    let useCases = UseCases(
        passwords: passwords,
        sessions: Sessions(strategy: provider, liveness: identity.liveness, limiter: limiter, events: signInEvents, domainEvents: domainEvents),
        social: SocialSignIn(
            google: social.google,
            apple: social.apple,
            strategy: provider,
            limiter: limiter,
            events: signInEvents,
            domainEvents: domainEvents,
            appleWeb: appleWeb
        ),
        phone: PhoneSignIn(
            strategy: provider,
            policy: configuration.smsCountries,
            limiter: limiter,
            events: signInEvents,
            domainEvents: domainEvents,
            stepUp: stepUp
        ),
        accounts: accounts,
        profiles: Profiles(store: store, strategy: provider, clock: clock, cache: profileCache, domainEvents: domainEvents),
        passkeys: passkeys,
        secondFactor: SecondFactor(
            strategy: provider as? any SecondFactorStrategy,
            issuer: issuing,
            store: store,
            box: box,
            clock: clock,
            random: random,
            limiter: limiter,
            events: signInEvents,
            issuerName: configuration.pool.appName
        ),
        administration: Administration(
            strategy: provider as? any AdministrationStrategy,
            accounts: accounts,
            store: store,
            domainEvents: domainEvents,
            clock: clock,
            random: random,
            webhooks: webhooks
        ),
        signInChoices: SignInChoices(passwords: passwords, passkeys: passkeys, store: store, box: box, clock: clock, random: random),
        stepUp: stepUp,
        limiter: limiter,
        domainEvents: domainEvents,
        accountSessions: AccountSessions(strategy: provider as? any SessionListStrategy, domainEvents: domainEvents),
        emailChange: EmailChange(strategy: provider as? any EmailChangeStrategy, limiter: limiter, stepUp: stepUp, domainEvents: domainEvents)
    )

    let hostedUI =
        try configuration.hostedUI
        ? HostedUIResponder(
            hosted: hostedSignIn(
                configuration,
                useCases: useCases,
                provider: provider,
                client: client,
                store: store,
                box: box,
                upstream: upstream,
                clock: clock,
                random: random,
                domainEvents: domainEvents
            ),
            pages: HostedPages(
                appName: configuration.pool.appName,
                passwordPolicy: configuration.pool.passwordPolicy,
                callbackURLs: configuration.callbackURLs,
                // The pages are served on the issuer's origin: passkeys there only if that origin is accepted.
                passkeys: passkeys.settings?.origins.contains(PasskeyConfiguration.origin(of: issuer)) == true
            ),
            cookies: HostedCookies(issuer: issuer)
        )
        : nil

    // HTTP: the controllers on one router.
    let router = Router(context: GatehouseRequestContext.self)
    let routes = GatehouseRouter(
        passwords: useCases.passwords,
        sessions: useCases.sessions,
        social: useCases.social,
        phone: useCases.phone,
        accounts: useCases.accounts,
        profiles: useCases.profiles,
        passkeys: useCases.passkeys,
        secondFactor: useCases.secondFactor,
        administration: useCases.administration,
        signInChoices: useCases.signInChoices,
        accountSessions: useCases.accountSessions,
        emailChange: useCases.emailChange,
        metrics: metrics,
        discovery: identity.discovery,
        web: WebPage(configuration: configuration),
        body: RequestBodyReader(limit: configuration.maxBodySize),
        trustedProxies: configuration.trustedProxies,
        corsOrigins: Set(configuration.corsOrigins),
        appAssociation: configuration.passkeys,
        compatAPIV1: configuration.compatAPIV1,
        cognitoAPIClient: configuration.cognitoAPI ? client : nil,
        hostedUI: hostedUI,
        appleNotifications: AppleNotifications(
            verifier: AppleNotificationVerifier(apple: social.apple, clock: clock),
            strategy: provider as? any AppleNotificationStrategy,
            accounts: accounts,
            domainEvents: domainEvents
        )
    ).install(on: router)

    // Background work.
    let delivery = DeliveryDispatcher(
        store: store,
        box: box,
        channels: [
            MailChannel(renderer: try MailTransports.renderer(configuration), transport: mailTransport, relay: RelayForwardingCheck(store: store)),
            SMSChannel(appName: configuration.pool.appName, transport: smsTransport),
            WebhookChannel(
                store: store,
                webhooks: webhooks,
                addresses: webhookAddresses,
                upstream: upstream,
                timeout: configuration.webhookTimeout
            ),
        ],
        clock: clock,
        random: random,
        settings: configuration.messageDelivery,
        wakeUp: deliveryWakeUp,
        observer: metrics,
        logger: logger
    )
    let gate = StartUpGate()
    // In start order; graceful shutdown goes in reverse, so the store (first) closes last.
    var services: [any Service] = [store.service, hashingPool, UpstreamHTTPClientService(upstream: upstream)]
    var afterStartUp: [any Service] = [
        MaintenanceService(
            store: store,
            keys: keyManager,
            keyring: keyring,
            clock: clock,
            logger: logger,
            auditRetention: TimeInterval(configuration.auditRetentionDays) * 86_400,
            keyReloadInterval: overrides.keyReloadInterval
        )
    ]
    if overrides.refreshProviderKeysInBackground, !identity.upstreamKeySets.isEmpty {
        afterStartUp.append(ProviderKeyRefreshService(keySets: identity.upstreamKeySets, clock: clock, logger: logger))
    }
    if let vault = social.vault { afterStartUp.append(AppleRevocationService(vault: vault, logger: logger)) }
    if overrides.deliverInBackground { afterStartUp.append(DeliveryService(dispatcher: delivery, logger: logger)) }
    if let eventChannel { afterStartUp.append(eventChannel) }
    services += afterStartUp.map { AfterStartUp(service: $0, gate: gate) }

    let startUp = StartUp(
        configuration: configuration,
        store: store,
        storeDescription: location.redacted,
        box: box,
        client: client,
        pool: pool,
        keyring: keyring,
        refreshKey: refreshKey,
        initialSigningKeys: overrides.initialSigningKeys,
        mailTransport: mailTransport,
        smsTransport: smsTransport,
        transportsOverridden: (mail: overrides.mailTransport != nil, sms: overrides.smsTransport != nil),
        clock: clock,
        logger: logger
    )
    let onServerRunning = overrides.onServerRunning
    var app = Application(
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
    app.beforeServerStarts {
        do {
            try await startUp.run()
            gate.open()
        } catch {
            gate.fail()
            throw error
        }
    }
    return GatehouseApplication(
        app: app,
        issuer: issuer,
        routes: routes,
        client: configuration.cognito.map { AppClient(id: $0.clientID) } ?? client,
        store: store,
        provider: provider,
        appleVault: social.vault,
        messageDelivery: delivery,
        eventChannel: eventChannel,
        useCases: useCases,
        liveness: identity.liveness,
        srpVerifiers: srpVerifiers,
        startUp: startUp
    )
}

/// The hosted UI's use case, over the embedded pool (configuration refuses it with Cognito).
private func hostedSignIn(
    _ configuration: GatehouseConfiguration,
    useCases: UseCases,
    provider: any IdentityProvider,
    client: AppClient,
    store: SQLStore,
    box: SecretBox,
    upstream: UpstreamHTTPClient,
    clock: any TimeSource,
    random: any RandomSource,
    domainEvents: DomainEvents
) throws -> HostedSignIn {
    guard let pool = provider as? any HostedSessionStrategy else {
        throw ConfigurationError("GATEHOUSE_HOSTED_UI needs the embedded user pool.")
    }
    let issuer = configuration.resolvedIssuer
    var google: GoogleWebSettings?
    var exchange: (any GoogleCodeExchange)?
    if let id = configuration.googleWebClientID, let secret = configuration.googleWebClientSecret {
        google = GoogleWebSettings(clientID: id, authorizationURL: configuration.googleAuthorizationURL, redirectURI: issuer + "/oauth2/idpresponse")
        exchange = HTTPGoogleTokenAPI(upstream: upstream, tokenURL: configuration.googleTokenURL, clientID: id, clientSecret: secret)
    }
    return HostedSignIn(
        settings: HostedUISettings(
            callbackURLs: Set(configuration.callbackURLs),
            signOutURLs: Set(configuration.signOutURLs),
            sessionLifetime: configuration.hostedSessionLifetime
        ),
        client: client,
        strategy: pool,
        store: store,
        box: box,
        clock: clock,
        random: random,
        domainEvents: domainEvents,
        social: useCases.social,
        google: google,
        googleExchange: exchange,
        appleRedirectURI: issuer + "/oauth2/idpresponse"
    )
}
