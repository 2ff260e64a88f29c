import Synchronization

/// A value behind the standard library's `Synchronization.Mutex`, held by reference: something
/// closures may capture and share, holding values that are not `Sendable`, which the non-copyable
/// `Synchronization.Mutex` with its `sending` rules does not offer. It runs at 0.89x the bare
/// `Synchronization.Mutex` rate (Benchmarks/Microbench `mutex`). Named apart from the standard
/// library's type so that neither shadows the other.
package final class LockedBox<Value>: @unchecked Sendable {
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
