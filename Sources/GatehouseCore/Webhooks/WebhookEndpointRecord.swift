import Foundation

/// A receiver an operator registered: where events go, which ones, and the signing secret sealed under
/// the master key. Removing an endpoint disables it (the row stays so queued deliveries to it are
/// dead-lettered rather than sent).
public struct WebhookEndpointRecord: Sendable, Equatable {
    /// A UUIDv7 (`whe_` is not prefixed; the id is what `remove` takes).
    public var id: String
    /// The receiver's URL (`https://`, or `http://` to a loopback host).
    public var url: String
    /// The events it subscribes to.
    public var events: [WebhookEvent]
    /// The `whsec_…` secret, sealed with the context ``sealingContext(_:)``.
    public var sealedSecret: String
    /// When it was added.
    public var createdAt: Date
    /// When it was removed; `nil` while live.
    public var disabledAt: Date?

    /// A record.
    /// - Parameters:
    ///   - id: A UUIDv7.
    ///   - url: The receiver's URL.
    ///   - events: The subscribed events.
    ///   - sealedSecret: The sealed secret.
    ///   - createdAt: When it was added.
    ///   - disabledAt: When it was removed.
    public init(id: String, url: String, events: [WebhookEvent], sealedSecret: String, createdAt: Date, disabledAt: Date? = nil) {
        self.id = id
        self.url = url
        self.events = events
        self.sealedSecret = sealedSecret
        self.createdAt = createdAt
        self.disabledAt = disabledAt
    }

    /// The sealing context of endpoint `id`'s secret.
    /// - Parameter id: The endpoint's id.
    /// - Returns: The context.
    public static func sealingContext(_ id: String) -> String { "webhook-secret:\(id)" }
}
