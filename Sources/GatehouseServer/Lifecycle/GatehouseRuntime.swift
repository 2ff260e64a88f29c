import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseStore
import Hummingbird
import Logging
import ServiceLifecycle

/// Everything behind the controllers that needs the master key, the database or the signing keys:
/// built once by ``start(_:)`` in `beforeServerStarts` — after the service group has started the
/// store's connection pool, before the server binds — and published through ``PublishedRuntime``.
final class GatehouseRuntime: Sendable {
    /// The router with every controller installed.
    let responder: RouterResponder<GatehouseRequestContext>
    /// What the router serves, as the controllers registered it.
    let routes: ServedRoutes
    let clientID: String
    let store: SQLStore
    let provider: any IdentityProvider
    let appleVault: AppleTokenVault?
    let mailDispatcher: DeliveryDispatcher
    /// Domain events to and from the other instances (PostgreSQL); nil on SQLite.
    let eventChannel: (any StoreEventChannel)?

    init(
        responder: RouterResponder<GatehouseRequestContext>,
        routes: ServedRoutes,
        clientID: String,
        store: SQLStore,
        provider: any IdentityProvider,
        appleVault: AppleTokenVault?,
        mailDispatcher: DeliveryDispatcher,
        eventChannel: (any StoreEventChannel)?
    ) {
        self.responder = responder
        self.routes = routes
        self.clientID = clientID
        self.store = store
        self.provider = provider
        self.appleVault = appleVault
        self.mailDispatcher = mailDispatcher
        self.eventChannel = eventChannel
    }

    /// What `buildApplication` made without I/O and the runtime is assembled around.
    struct Parts: Sendable {
        var configuration: GatehouseConfiguration
        var options: GatehouseRuntimeOptions
        var logger: Logger
        /// The store's URL without its password, for the log.
        var storeDescription: String
        /// Opens the store (see `StoreLocation.deferredOpen`).
        var openStore: @Sendable () async throws -> (store: SQLStore, service: (any Service)?)
        /// Where mail goes (the configured transport, or the one the tests gave).
        var mailTransport: any MailTransport
        /// Where SMS go (the configured transport, or the one the tests gave).
        var smsTransport: any SMSTransport
        var hashingPool: BlockingWorkPool
        var upstream: UpstreamHTTPClient
    }

    /// The I/O `serve` does once before answering requests: the data directory, the master key, the
    /// outbox, the store (migrated or checked, pinned to the master key), the client id and the
    /// signing keys; then the use cases, the controllers and the services that need them.
    /// - Parameter parts: What `buildApplication` made.
    /// - Returns: The runtime, and the services to run from now on (SQLite's checkpointer first).
    /// - Throws: ``ConfigurationError`` for a bad master key, pending migrations with auto-migrate
    ///   off, a master key that does not match the database's, an unreadable Apple key, or a Cognito
    ///   provider without settings; the file system's or the store's error otherwise.
    static func start(_ parts: Parts) async throws -> (GatehouseRuntime, [any Service]) {
        let configuration = parts.configuration
        let logger = parts.logger
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let box = try SecretBox(masterKey: try Bootstrap.masterKey(configuration, logger: logger))
        try (parts.mailTransport as? OutboxTransport)?.createDirectory()
        try (parts.smsTransport as? SMSOutboxTransport)?.createDirectory()
        let (store, storeService) = try await parts.openStore()
        do {
            let prepared = try await Bootstrap.prepare(
                store: store,
                configuration: configuration,
                box: box,
                clock: parts.options.clock,
                logger: logger
            )
            return try assemble(parts, store: store, storeService: storeService, box: box, prepared: prepared)
        } catch {
            try? await store.close()
            throw error
        }
    }
}
