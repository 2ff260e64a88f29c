import GatehouseCore
import GatehouseInfrastructure

/// The domain events a command-line action published, to announce to running servers once it is done.
final class CollectedEvents: DomainEventSubscriber {
    private let events = LockedBox<[DomainEvent]>([])

    func receive(_ event: DomainEvent) {
        events.withLock { $0.append(event) }
    }

    /// The events so far, emptied.
    func drain() -> [DomainEvent] {
        events.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }
}
