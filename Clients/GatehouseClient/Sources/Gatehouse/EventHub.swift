import Foundation

/// Fans auth state changes out to every subscriber's AsyncStream. A state subscriber starts "pending": it
/// gets nothing until the client hands it the current state (``activate(_:with:)``), and every change after.
/// The client emits and activates on its actor, so the first element always reflects every earlier change.
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [UUID: AsyncStream<AuthEvent>.Continuation] = [:]
    private var states: [UUID: (active: Bool, continuation: AsyncStream<AuthStateChange>.Continuation)] = [:]

    func stream() -> AsyncStream<AuthEvent> {
        AsyncStream(bufferingPolicy: .bufferingNewest(32)) { continuation in
            let id = UUID()
            lock.withLock { events[id] = continuation }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.withLock { _ = self.events.removeValue(forKey: id) }
            }
        }
    }

    /// A stream that stays empty until ``activate(_:with:)`` is called with its id.
    func pendingStateStream() -> (AsyncStream<AuthStateChange>, UUID) {
        let id = UUID()
        let stream = AsyncStream(AuthStateChange.self, bufferingPolicy: .bufferingNewest(32)) { continuation in
            lock.withLock { states[id] = (false, continuation) }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.withLock { _ = self.states.removeValue(forKey: id) }
            }
        }
        return (stream, id)
    }

    func activate(_ id: UUID, with initial: AuthStateChange) {
        lock.withLock {
            guard let entry = states[id], !entry.active else { return }
            states[id] = (true, entry.continuation)
            entry.continuation.yield(initial)
        }
    }

    func emit(_ change: AuthStateChange) {
        let (eventContinuations, stateContinuations) = lock.withLock {
            (Array(events.values), states.values.filter(\.active).map(\.continuation))
        }
        for continuation in eventContinuations { continuation.yield(change.event) }
        for continuation in stateContinuations { continuation.yield(change) }
    }
}
