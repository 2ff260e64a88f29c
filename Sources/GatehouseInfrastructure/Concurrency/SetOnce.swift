import Synchronization

/// A value that is not known when the object graph is built and is set once at start-up: the master
/// key, the client id, the signing keys and the store's connection are read from disk or the
/// database in `beforeServerStarts`, while everything that uses them was made before. Reading is one
/// atomic load; reading before the value is set is a programming error (the server binds only after
/// start-up has set every value), so it stops the process with `what` in the message.
package final class SetOnce<Value: Sendable>: Sendable {
    private final class Holder: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let reference = AtomicLazyReference<Holder>()
    private let what: String

    /// An empty handle.
    /// - Parameter what: What the value is, for the message when it is read too early.
    package init(_ what: String) {
        self.what = what
    }

    /// A handle that is set from the start (tests, command-line jobs).
    /// - Parameters:
    ///   - what: What the value is.
    ///   - value: The value.
    package init(_ what: String, value: Value) {
        self.what = what
        _ = reference.storeIfNil(Holder(value))
    }

    /// The value, or `nil` before it is set.
    package var valueIfSet: Value? { reference.load()?.value }

    /// The value; stops the process when read before it is set.
    package var value: Value {
        guard let holder = reference.load() else { preconditionFailure("\(what) was read before start-up set it") }
        return holder.value
    }

    /// Sets the value; only the first call has an effect.
    /// - Parameter value: The value.
    /// - Returns: The value the handle holds (the first one set).
    @discardableResult
    package func set(_ value: Value) -> Value {
        reference.storeIfNil(Holder(value)).value
    }
}
