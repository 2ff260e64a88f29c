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
    public let mailDelivery: DeliveryDispatcher
    /// Domain events to and from the other instances (PostgreSQL); nil on SQLite.
    let eventChannel: (any StoreEventChannel)?
    /// The use cases the controllers call (tests drive the policy through them).
    package let useCases: UseCases
    /// The session-liveness cache bearer authentication reads.
    package let liveness: CachedSessionLiveness
    /// Makes and opens the embedded pool's SRP verifiers.
    package let srpVerifiers: SRPVerifiers

    init(
        app: App,
        issuer: String,
        routes: ServedRoutes,
        client: AppClient,
        store: SQLStore,
        provider: any IdentityProvider,
        appleVault: AppleTokenVault?,
        mailDelivery: DeliveryDispatcher,
        eventChannel: (any StoreEventChannel)?,
        useCases: UseCases,
        liveness: CachedSessionLiveness,
        srpVerifiers: SRPVerifiers
    ) {
        self.app = app
        self.issuer = issuer
        self.routes = routes
        self.client = client
        self.store = store
        self.provider = provider
        self.appleVault = appleVault
        self.mailDelivery = mailDelivery
        self.eventChannel = eventChannel
        self.useCases = useCases
        self.liveness = liveness
        self.srpVerifiers = srpVerifiers
    }

    /// The client id tokens are issued for (Cognito's app client in Cognito mode); settled at start-up.
    public var clientID: String { client.id }

    /// How many times this instance has started listening to the other instances' events (0: not yet;
    /// each reconnection adds one); nil on SQLite, where one process owns the database.
    public var eventChannelConnections: Int? { eventChannel?.connections }
}
