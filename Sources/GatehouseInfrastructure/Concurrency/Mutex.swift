import Synchronization

/// A value behind the standard library's `Synchronization.Mutex`, held by reference.
///
/// Switched: the lock is the standard library's (it was an `NSLock` of our own). This class only
/// keeps the shape the code base was written against — a reference that closures may capture and
/// that holds values which are not `Sendable` — which the non-copyable `Synchronization.Mutex`
/// with its `sending` rules does not offer. Benchmarks/Microbench `mutex` measures the cost.
package final class Mutex<Value>: @unchecked Sendable {
    private let lock = Synchronization.Mutex(())
    private nonisolated(unsafe) var value: Value

    /// - Parameter value: The initial value.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    /// - Parameter body: Reads or changes the value.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try withoutActuallyEscaping(body) { body in
            var result: Result<R, any Error>?
            lock.withLock { _ in result = Result { try body(&self.value) } }
            return try result!.get()
        }
    }
}
