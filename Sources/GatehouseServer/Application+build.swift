import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseStore
import Hummingbird
import Logging
import ServiceLifecycle

/// What tests may replace when building the app. Production uses the defaults.
public struct GatehouseRuntimeOptions: Sendable {
    public var clock: any TimeSource
    public var random: any RandomSource
    /// A mail transport to use instead of the configured one (tests capture mail with it).
    public var mailTransport: (any MailTransport)?
    /// An SMS transport to use instead of the configured one (tests capture texts with it).
    public var smsTransport: (any SMSTransport)?
    public var logger: Logger?
    /// Called with the bound port once the server listens.
    public var onServerRunning: (@Sendable (Int) async -> Void)?
    /// Whether the providers' key sets are fetched at start and kept fresh in the background (on in
    /// production; tests that script a provider outage turn it off so only requests fetch).
    public var refreshProviderKeysInBackground: Bool

    public init(
        clock: any TimeSource = SystemTimeSource(),
        random: any RandomSource = SystemRandomSource(),
        mailTransport: (any MailTransport)? = nil,
        smsTransport: (any SMSTransport)? = nil,
        logger: Logger? = nil,
        onServerRunning: (@Sendable (Int) async -> Void)? = nil,
        refreshProviderKeysInBackground: Bool = true
    ) {
        self.clock = clock
        self.random = random
        self.mailTransport = mailTransport
        self.smsTransport = smsTransport
        self.logger = logger
        self.onServerRunning = onServerRunning
        self.refreshProviderKeysInBackground = refreshProviderKeysInBackground
    }
}

/// The composition root: `gatehouse serve` and every test build the app here. Building does no I/O:
/// the data directory, the master key, the store (migrations, the client id, the signing keys) and
/// everything that needs them are made in `beforeServerStarts` (``GatehouseRuntime/start(_:)``), once
/// the service group runs, so a misconfiguration stops `app.run()` before the server binds.
/// - Parameters:
///   - configuration: The server's configuration.
///   - options: What tests replace.
/// - Returns: The application, not yet running.
/// - Throws: When the database URL is not one the store understands.
public func buildApplication(configuration: GatehouseConfiguration, options: GatehouseRuntimeOptions = .init()) async throws -> GatehouseApplication {
    let logger = options.logger ?? Logger(label: "gatehouse")
    let location = try StoreLocation(url: configuration.resolvedDatabaseURL)
    let (storeService, openStore) = try location.deferredOpen(logger: logger)
    // Its threads start when the service group runs it (below).
    let hashingPool = BlockingWorkPool(
        label: "gatehouse.password-hashing",
        width: configuration.resolvedHashingConcurrency,
        limits: configuration.hashingLimits
    )
    // Requests only queue mail and SMS (in the store); a background service delivers them.
    let upstream = UpstreamHTTPClient()
    let mailTransport = options.mailTransport ?? MailTransports.make(configuration, upstream: upstream, logger: logger)
    let smsTransport = options.smsTransport ?? SMSTransports.make(configuration, upstream: upstream, logger: logger)
    let published = PublishedRuntime()
    let late = DeferredServices(logger: logger)
    let parts = GatehouseRuntime.Parts(
        configuration: configuration,
        options: options,
        logger: logger,
        storeDescription: location.redacted,
        openStore: openStore,
        mailTransport: mailTransport,
        smsTransport: smsTransport,
        hashingPool: hashingPool,
        upstream: upstream
    )

    var services: [any Service] = []
    if let storeService { services.append(storeService) }
    services.append(hashingPool)
    services.append(late)
    services.append(UpstreamHTTPClientService(upstream: upstream))
    services.append(StoreCloserService(close: { try await published.runtime?.store.close() }))

    let issuer = configuration.resolvedIssuer
    let onServerRunning = options.onServerRunning
    var app = Application(
        responder: GatehouseResponder(published: published),
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
        let (runtime, runtimeServices) = try await GatehouseRuntime.start(parts)
        published.publish(runtime)
        late.start(runtimeServices)
    }
    return GatehouseApplication(app: app, issuer: issuer, published: published)
}
