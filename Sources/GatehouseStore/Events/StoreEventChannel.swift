import GatehouseCore
import ServiceLifecycle

/// Domain events between the instances that share the store's database (PostgreSQL's LISTEN/NOTIFY).
/// The server relays this instance's events into ``send(_:)`` and applies what ``connect(onRemote:onTrust:)``
/// delivers; the channel is a `Service` to run alongside the store.
public protocol StoreEventChannel: Service, Sendable {
    /// Sets where the other instances' events go and who is told whether they can arrive; the caches
    /// are told `false` at once (until the channel is listening).
    /// - Parameters:
    ///   - onRemote: Applies events another instance published.
    ///   - onTrust: `true` each time the channel listens (again; the server has committed the
    ///     `LISTEN`), `false` while events might be missed.
    func connect(onRemote: @escaping @Sendable ([DomainEvent]) -> Void, onTrust: @escaping @Sendable (Bool) -> Void)

    /// How many times the channel has started listening (0 before the first time), counted once the
    /// server has committed the `LISTEN`; a reconnection adds one. For tests and operators.
    var connections: Int { get }

    /// Queues one of this instance's events for the others; never blocks.
    /// - Parameter event: What happened here.
    func send(_ event: DomainEvent)
}
