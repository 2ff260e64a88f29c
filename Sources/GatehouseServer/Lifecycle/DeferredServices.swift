import Logging
import ServiceLifecycle

/// The services that need the ``GatehouseRuntime`` (SQLite's checkpointer, maintenance, key refresh,
/// Apple revocations): a place in the application's service group from the start, whose `run()` waits
/// for them to be handed over in `beforeServerStarts` and then runs them as a group of their own. The
/// parent's graceful shutdown reaches them (a `ServiceGroup` listens to its parent's); if the
/// application stops before they are handed over, it returns.
struct DeferredServices: Service {
    private let handedOver: AsyncStream<[any Service]>
    private let handOver: AsyncStream<[any Service]>.Continuation
    private let logger: Logger

    init(logger: Logger) {
        (handedOver, handOver) = AsyncStream.makeStream(of: [any Service].self, bufferingPolicy: .bufferingNewest(1))
        self.logger = logger
    }

    /// Hands the services over; they start at once in ``run()``.
    /// - Parameter services: The runtime's services, in start order (they shut down in reverse).
    func start(_ services: [any Service]) {
        handOver.yield(services)
        handOver.finish()
    }

    func run() async throws {
        let stream = handedOver
        let services = await cancelWhenGracefulShutdown { await stream.first { _ in true } }
        guard let services else { return }
        guard !services.isEmpty else {
            try? await gracefulShutdown()
            return
        }
        // A service that ends by itself (SQLite's checkpointer, once the store is closed) does not end
        // the others; graceful shutdown and cancellation still reach them all.
        let configurations = services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0, successTerminationBehavior: .ignore) }
        try await ServiceGroup(configuration: .init(services: configurations, logger: logger)).run()
    }
}
