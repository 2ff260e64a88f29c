/// A subscriber that passes this process's events on to the other instances. Events that arrive from
/// another instance (``DomainEvents/applyRemote(_:)``) are not given to relays, so nothing echoes.
public protocol DomainEventRelay: DomainEventSubscriber {}

/// Hands this process's events to a cross-instance channel (PostgreSQL's NOTIFY on the server), which
/// sends them in the background: `receive` only queues.
public struct EventBroadcast: DomainEventRelay {
    let send: @Sendable (DomainEvent) -> Void

    /// A relay.
    /// - Parameter send: Queues one event for the other instances; must not block.
    public init(send: @escaping @Sendable (DomainEvent) -> Void) {
        self.send = send
    }

    /// Queues the event for the other instances.
    /// - Parameter event: What happened here.
    public func receive(_ event: DomainEvent) {
        send(event)
    }
}
