import GatehouseCore
import GatehouseMessaging
import GatehouseStore
import Hummingbird

/// A built Gatehouse: the Hummingbird application plus what tests and the CLI want to know about it.
/// What needs the database or the master key exists only once the application runs (it is made in
/// `beforeServerStarts`); reading it before then throws.
public struct GatehouseApplication: Sendable {
    public typealias App = Application<GatehouseResponder>
    public var app: App
    public let issuer: String
    let published: PublishedRuntime

    init(app: App, issuer: String, published: PublishedRuntime) {
        self.app = app
        self.issuer = issuer
        self.published = published
    }

    /// What the router serves, as the controllers registered it.
    /// - Throws: `internal_error` before the application has started.
    public var routes: ServedRoutes {
        get throws { try published.started().routes }
    }

    /// The client id tokens are issued for (Cognito's app client in Cognito mode).
    /// - Throws: `internal_error` before the application has started.
    public var clientID: String {
        get throws { try published.started().clientID }
    }

    /// Delivers the mail queue in the background (tests wait on it for the mail of a request).
    /// - Throws: `internal_error` before the application has started.
    public var mailDelivery: DeliveryDispatcher {
        get throws { try published.started().mailDispatcher }
    }

    /// How many times this instance has started listening to the other instances' events (0: not yet;
    /// each reconnection adds one); nil on SQLite, where one process owns the database.
    /// - Throws: `internal_error` before the application has started.
    public var eventChannelConnections: Int? {
        get throws { try published.started().eventChannel?.connections }
    }

    /// The open store.
    /// - Throws: `internal_error` before the application has started.
    public var store: SQLStore {
        get throws { try published.started().store }
    }

    /// The identity provider strategy (embedded pool or Cognito).
    /// - Throws: `internal_error` before the application has started.
    public var provider: any IdentityProvider {
        get throws { try published.started().provider }
    }

    /// Set when Apple credentials are configured.
    /// - Throws: `internal_error` before the application has started.
    public var appleVault: AppleTokenVault? {
        get throws { try published.started().appleVault }
    }
}
