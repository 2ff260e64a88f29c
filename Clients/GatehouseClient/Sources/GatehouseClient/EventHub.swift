import Foundation

/// Fans auth events out to every subscriber's AsyncStream.
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<AuthEvent>.Continuation] = [:]

    func stream() -> AsyncStream<AuthEvent> {
        AsyncStream(bufferingPolicy: .bufferingNewest(32)) { continuation in
            let id = UUID()
            lock.withLock { continuations[id] = continuation }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.withLock { _ = self.continuations.removeValue(forKey: id) }
            }
        }
    }

    func emit(_ event: AuthEvent) {
        for continuation in lock.withLock({ Array(continuations.values) }) { continuation.yield(event) }
    }
}
