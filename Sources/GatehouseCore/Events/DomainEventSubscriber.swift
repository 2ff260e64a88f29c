/// Receives every ``DomainEvent`` published through ``DomainEvents``.
public protocol DomainEventSubscriber: Sendable {
    /// Handles one event. Called synchronously on the publisher's task, so keep it short (a
    /// subscriber with slow work, such as a cross-instance notifier, queues it).
    /// - Parameter event: What happened.
    func receive(_ event: DomainEvent)

    /// Told `false` when other instances' events may stop reaching this process (the cross-instance
    /// channel is down, or not yet listening) and `true` each time it listens again: a subscriber
    /// that keeps state right from events distrusts it meanwhile, and catches up on what it may have
    /// missed when told `true`. Called synchronously; the default does nothing.
    /// - Parameter arrive: Whether other instances' events reach this process from now on.
    func remoteEvents(arrive: Bool)
}

extension DomainEventSubscriber {
    /// Nothing to catch up on.
    /// - Parameter arrive: Ignored.
    public func remoteEvents(arrive: Bool) {}
}
