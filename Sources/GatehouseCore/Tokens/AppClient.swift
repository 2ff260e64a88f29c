import GatehouseInfrastructure

/// The app client the embedded pool issues tokens for. Its id is `GATEHOUSE_CLIENT_ID`, or one
/// generated on the first start and kept in the database so every instance agrees; the server makes
/// the handle first and settles the id at start-up (``settle(_:)``).
public final class AppClient: Sendable {
    private let stored = SetOnce<String>("the client id")

    /// A client whose id is settled at start-up.
    public init() {}

    /// A client with a known id.
    /// - Parameter id: The client id.
    public init(id: String) {
        stored.set(id)
    }

    /// The client id: `aud` of ID tokens, `client_id` of access tokens.
    public var id: String { stored.value }

    /// Sets the id; only the first call has an effect.
    /// - Parameter id: The client id.
    public func settle(_ id: String) {
        stored.set(id)
    }
}
