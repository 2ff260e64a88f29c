import Foundation

/// Serialises async work per key inside this process: callers with the same key run one at a time,
/// in arrival order; different keys do not wait for each other.
///
/// Kept: no maintained library type does this among the packages available here (swift-async-algorithms
/// 1.1.4 has no keyed or async lock).
package final class KeyedAsyncLock: Sendable {
    private struct State {
        var held: Set<String> = []
        var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = LockedBox(State())

    package init() {}

    package func withLock<T: Sendable>(_ key: String, _ body: () async throws -> T) async throws -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                if state.held.insert(key).inserted { return true }
                state.waiters[key, default: []].append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    private func release(_ key: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard var queue = state.waiters[key], !queue.isEmpty else {
                state.held.remove(key)
                state.waiters[key] = nil
                return nil
            }
            let first = queue.removeFirst()
            state.waiters[key] = queue.isEmpty ? nil : queue
            return first  // the key stays held: ownership passes to the next waiter
        }
        next?.resume()
    }
}
