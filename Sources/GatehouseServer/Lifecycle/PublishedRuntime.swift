import GatehouseCore
import Synchronization

/// The one set-once reference to the ``GatehouseRuntime``: empty while the application is built (no I/O
/// happens then), filled once in `beforeServerStarts`, and after that read with one atomic load (the
/// responder's, on every request; the late services' and the store closer's, once).
final class PublishedRuntime: Sendable {
    private let reference = AtomicLazyReference<GatehouseRuntime>()

    /// The runtime, once the application has started.
    var runtime: GatehouseRuntime? { reference.load() }

    /// Publishes the runtime; only the first call has an effect.
    /// - Parameter runtime: The runtime built in `beforeServerStarts`.
    func publish(_ runtime: GatehouseRuntime) {
        _ = reference.storeIfNil(runtime)
    }

    /// The runtime, for what only exists once the application runs.
    /// - Returns: The published runtime.
    /// - Throws: `internal_error` before `beforeServerStarts` has built it.
    func started() throws -> GatehouseRuntime {
        guard let runtime = reference.load() else {
            throw GatehouseError.internalError(cause: "the application has not started: its runtime is built in beforeServerStarts")
        }
        return runtime
    }
}
