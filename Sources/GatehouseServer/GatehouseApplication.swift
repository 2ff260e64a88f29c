import GatehouseCore
import GatehouseMessaging
import GatehouseStore
import Hummingbird

/// A built Gatehouse: the Hummingbird application plus what tests and the CLI want to know about it.
/// The store, the client id and the keys are handles that start-up fills in when the application runs.
public struct GatehouseApplication: Sendable {
    public typealias App = Application<RouterResponder<GatehouseRequestContext>>
    public var app: App
    public let issuer: String
    /// What the router serves, as the controllers registered it.
    public let routes: ServedRoutes
    let client: AppClient
    /// The store (open once the application has started).
    public let store: SQLStore
    /// The identity provider strategy (embedded pool or Cognito).
    public let provider: any IdentityProvider
    /// Set when Apple credentials are configured.
    public let appleVault: AppleTokenVault?
    /// Delivers the mail queue in the background (tests wait on it for the mail of a request).
    public let messageDelivery: DeliveryDispatcher
    /// Domain events to and from the other instances (PostgreSQL); nil on SQLite.
    let eventChannel: (any StoreEventChannel)?
    /// The use cases the controllers call (tests drive the policy through them).
    package let useCases: UseCases
    /// The session-liveness cache bearer authentication reads.
    package let liveness: CachedSessionLiveness
    /// Makes and opens the embedded pool's SRP verifiers.
    package let srpVerifiers: SRPVerifiers
    let startUp: StartUp

    init(
        app: App,
        issuer: String,
        routes: ServedRoutes,
        client: AppClient,
        store: SQLStore,
        provider: any IdentityProvider,
        appleVault: AppleTokenVault?,
        messageDelivery: DeliveryDispatcher,
        eventChannel: (any StoreEventChannel)?,
        useCases: UseCases,
        liveness: CachedSessionLiveness,
        srpVerifiers: SRPVerifiers,
        startUp: StartUp
    ) {
        self.app = app
        self.issuer = issuer
        self.routes = routes
        self.client = client
        self.store = store
        self.provider = provider
        self.appleVault = appleVault
        self.messageDelivery = messageDelivery
        self.eventChannel = eventChannel
        self.useCases = useCases
        self.liveness = liveness
        self.srpVerifiers = srpVerifiers
        self.startUp = startUp
    }

    /// The client id tokens are issued for (Cognito's app client in Cognito mode); settled at start-up.
    public var clientID: String { client.id }

    /// How many times this instance has started listening to the other instances' events (0: not yet;
    /// each reconnection adds one); nil on SQLite, where one process owns the database.
    public var eventChannelConnections: Int? { eventChannel?.connections }

    /// Runs `body` with the operators' use case over the opened store, without serving HTTP: what
    /// `gatehouse users`, `gatehouse audit` and `gatehouse admin-keys` do. Start-up runs first (the
    /// master key, pending migrations refused unless `GATEHOUSE_AUTO_MIGRATE`), the audit actor is
    /// `cli`, and what the change ended or changed is announced to running servers afterwards (at once
    /// on PostgreSQL; on SQLite a running server sees it within its cache time).
    /// - Parameter body: The operator's action.
    /// - Returns: What `body` returns.
    /// - Throws: A start-up or configuration error, or `body`'s.
    public func administer<T: Sendable>(_ body: @escaping @Sendable (Administration) async throws -> T) async throws -> T {
        let collected = CollectedEvents()
        useCases.domainEvents.subscribe(collected)
        try await startUp.run()
        let service = store.service
        let administration = useCases.administration
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await service.run()
                return nil
            }
            defer { group.cancelAll() }
            do {
                let result = try await AuditOrigin.$current.withValue(.commandLine) { try await body(administration) }
                try? await store.announce(collected.drain())
                try? await store.close()
                return result
            } catch {
                try? await store.close()
                throw error
            }
        }
    }
}
