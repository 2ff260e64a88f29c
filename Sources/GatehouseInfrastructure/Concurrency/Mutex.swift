import Foundation

/// A small lock around a value (the standard library's `Synchronization.Mutex` needs macOS 15;
/// this one works everywhere the SDK runs).
package final class Mutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
