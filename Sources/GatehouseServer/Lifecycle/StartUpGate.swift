import GatehouseInfrastructure

/// Opens once start-up (`beforeServerStarts`) has made the store, the master key, the client id and
/// the signing keys ready, or fails when start-up threw. The services that use them
/// (``AfterStartUp``) wait on it, so they can sit in the application's one list of services from the
/// start.
final class StartUpGate: Sendable {
    private struct State {
        var outcome: Bool?
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextID = 0
    }

    private let state = LockedBox(State())

    /// Start-up succeeded: every waiter goes on.
    func open() { settle(true) }

    /// Start-up failed: every waiter gives up.
    func fail() { settle(false) }

    private func settle(_ outcome: Bool) {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Waits until start-up ends.
    /// - Returns: Whether it succeeded; `false` when the waiting task is cancelled first.
    func wait() async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Bool? in
                    if let outcome = state.outcome { return outcome }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: false)
        }
    }
}
