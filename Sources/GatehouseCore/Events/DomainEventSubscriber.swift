/// Receives every ``DomainEvent`` published through ``DomainEvents``.
public protocol DomainEventSubscriber: Sendable {
    /// Handles one event. Called synchronously on the publisher's task, so keep it short (a
    /// subscriber with slow work, such as a cross-instance notifier, queues it).
    /// - Parameter event: What happened.
    func receive(_ event: DomainEvent)
}
