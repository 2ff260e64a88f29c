import Dispatch

/// A counting semaphore for async code (FIFO): `acquire` suspends instead of blocking a thread.
/// Threads of our own (outside Swift concurrency) can take a turn too, with ``acquireBlocking()``.
///
/// Kept: no maintained library type does this among the packages available here (swift-async-algorithms
/// 1.1.4, resolved in this build, has no semaphore; NIO has none for async code).
package final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        /// Each waiter is woken by calling it: a continuation to resume, or a thread to signal.
        var waiters: [@Sendable () -> Void] = []
    }
    private let state: LockedBox<State>

    package init(count: Int) {
        state = LockedBox(State(available: count))
    }

    package func acquire() async {
        // Uncontended: take a permit without suspending the task.
        if tryAcquire() { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if enqueueUnlessAvailable({ continuation.resume() }) { continuation.resume() }
        }
    }

    /// Blocks the calling thread until a permit is free. Never call it from async code.
    package func acquireBlocking() {
        if tryAcquire() { return }
        let woken = DispatchSemaphore(value: 0)
        if enqueueUnlessAvailable({ woken.signal() }) { return }
        woken.wait()
    }

    package func release() {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?()
    }

    private func tryAcquire() -> Bool {
        state.withLock { state -> Bool in
            guard state.available > 0, state.waiters.isEmpty else { return false }
            state.available -= 1
            return true
        }
    }

    /// Takes a permit if one is free (returns true), or queues `wake` for the next release.
    private func enqueueUnlessAvailable(_ wake: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state -> Bool in
            if state.available > 0 {
                state.available -= 1
                return true
            }
            state.waiters.append(wake)
            return false
        }
    }
}
