import GatehouseInfrastructure

/// The in-process publisher of ``DomainEvent``s: a list of subscribers, each told every event in
/// the order subscribed. The composition root subscribes the ``CacheInvalidation``; more subscribers
/// (a cross-instance notifier) can be added.
public final class DomainEvents: Sendable {
    private let subscribers = LockedBox<[any DomainEventSubscriber]>([])

    /// Creates a publisher.
    /// - Parameter subscribers: The first subscribers.
    public init(subscribers: [any DomainEventSubscriber] = []) {
        self.subscribers.withLock { $0 = subscribers }
    }

    /// Adds a subscriber; it receives the events published from now on.
    /// - Parameter subscriber: Who to tell.
    public func subscribe(_ subscriber: any DomainEventSubscriber) {
        subscribers.withLock { $0.append(subscriber) }
    }

    /// Tells every subscriber about each event, in order.
    /// - Parameter events: What happened (after it committed).
    public func publish(_ events: [DomainEvent]) {
        guard !events.isEmpty else { return }
        let current = subscribers.withLock { $0 }
        for event in events {
            for subscriber in current { subscriber.receive(event) }
        }
    }

    /// Tells every subscriber about one event.
    /// - Parameter event: What happened (after it committed).
    public func publish(_ event: DomainEvent) {
        publish([event])
    }

    /// Applies events another instance published (they arrived over the cross-instance channel):
    /// every subscriber but the relays gets them.
    /// - Parameter events: What happened elsewhere.
    public func applyRemote(_ events: [DomainEvent]) {
        guard !events.isEmpty else { return }
        let local = subscribers.withLock { $0 }.filter { !($0 is any DomainEventRelay) }
        for event in events {
            for subscriber in local { subscriber.receive(event) }
        }
    }

    /// Tells every subscriber but the relays whether other instances' events arrive (see
    /// ``DomainEventSubscriber/remoteEvents(arrive:)``); the cross-instance channel calls it.
    /// - Parameter arrive: `true` each time the channel listens (again), `false` while it cannot.
    public func setRemoteEventsArrive(_ arrive: Bool) {
        let local = subscribers.withLock { $0 }.filter { !($0 is any DomainEventRelay) }
        for subscriber in local { subscriber.remoteEvents(arrive: arrive) }
    }
}
