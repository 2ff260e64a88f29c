import GatehouseInfrastructure

/// Wakes the mail delivery service when a request has queued a message (after its transaction
/// commits), so delivery starts at once instead of at the next poll. Signals do not accumulate: one
/// wake-up covers everything queued before it.
package final class DeliveryWakeUp: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = LockedBox(State())

    /// A wake-up with nothing pending.
    package init() {}

    /// Wakes the waiter, or makes its next wait return at once.
    package func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns at the next signal (at once if one is pending), after `timeout`, or when the task is
    /// cancelled. One waiter at a time.
    /// - Parameter timeout: The longest wait.
    package func wait(timeout: Duration) async {
        if state.withLock({ state in
            defer { state.pending = false }
            return state.pending
        }) {
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.waitForSignal() }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
