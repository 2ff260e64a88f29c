import Dispatch
import Foundation

/// Runs CPU-heavy synchronous work (password hashing) off the caller's thread with at most `width`
/// jobs in flight, so the event loops that answer requests are never blocked and a burst of sign-ins
/// queues instead of exhausting memory (each scrypt hash holds 128 MiB at the default parameters).
public final class BlockingWorkPool: Sendable {
    private let queue: DispatchQueue
    private let permits: AsyncSemaphore

    public let width: Int

    public init(label: String, width: Int) {
        self.width = max(1, width)
        self.queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
        self.permits = AsyncSemaphore(count: self.width)
    }

    /// Runs `work` on the pool, waiting for a free slot first.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        await permits.acquire()
        defer { permits.release() }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// A default width that leaves at least one core for request handling.
    public static var defaultWidth: Int {
        max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    }
}

/// A counting semaphore for async code (FIFO): `acquire` suspends instead of blocking a thread.
public final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    public init(count: Int) {
        state = Mutex(State(available: count))
    }

    public func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
