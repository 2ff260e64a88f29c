import GatehouseCore
import GatehouseMessaging
import Logging
import ServiceLifecycle

/// Runs the delivery queue's ``DeliveryDispatcher`` (mail and SMS) in the background. At graceful shutdown it stops after the
/// messages being sent (bounded by the transport's timeouts and `drainTimeout`) and closes the
/// transports' connections; whatever is still queued stays in the store and goes out after the restart.
struct DeliveryService: Service {
    let dispatcher: DeliveryDispatcher
    var drainTimeout: Duration = .seconds(10)
    let logger: Logger

    func run() async throws {
        let delivery = Task { await dispatcher.run() }
        await withTaskCancellationHandler {
            try? await gracefulShutdown()
        } onCancel: {
            delivery.cancel()
        }
        delivery.cancel()
        let timeout = drainTimeout
        let deadline = Task {
            try await Task.sleep(for: timeout)
            logger.warning("mail delivery did not stop within the drain timeout; its messages stay queued")
        }
        await delivery.value
        deadline.cancel()
        await dispatcher.shutdown()
    }
}
