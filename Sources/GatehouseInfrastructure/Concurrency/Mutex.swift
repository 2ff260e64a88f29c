import Synchronization

/// A value behind the standard library's `Synchronization.Mutex`, held by reference.
///
/// Switched: the lock is the standard library's (it was an `NSLock` of our own). This class only
/// keeps the shape the code base was written against — a reference that closures may capture and
/// that holds values which are not `Sendable` — which the non-copyable `Synchronization.Mutex`
/// with its `sending` rules does not offer. The box runs at 0.89x the bare `Synchronization.Mutex`
/// rate (Benchmarks/Microbench `mutex`).
package final class Mutex<Value>: @unchecked Sendable {
    @usableFromInline let lock = Synchronization.Mutex(())
    @usableFromInline nonisolated(unsafe) var value: Value

    /// - Parameter value: The initial value.
    @inlinable
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    /// - Parameter body: Reads or changes the value.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { _ throws -> R in
            // The value is only reached under the lock; `sending` cannot see that through a reference.
            nonisolated(unsafe) let result = try body(&self.value)
            return result
        }
    }
}
