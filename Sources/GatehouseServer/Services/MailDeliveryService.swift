import GatehouseCore
import Logging
import ServiceLifecycle

/// Runs the mail queue's ``MailDispatcher`` in the background. At graceful shutdown it stops after the
/// messages being sent (bounded by the transport's timeouts and `drainTimeout`) and closes the
/// transport's connections; whatever is still queued stays in the store and goes out after the restart.
struct MailDeliveryService: Service {
    let dispatcher: MailDispatcher
    let transport: any MailTransport
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
        await transport.shutdown()
    }
}
