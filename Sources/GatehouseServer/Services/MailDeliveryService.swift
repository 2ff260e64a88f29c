import GatehouseCore
import Logging
import ServiceLifecycle

/// Delivers the mail requests queued (``MailQueue``) in the background. At shutdown it stops taking
/// messages and delivers what is queued for at most `drainTimeout`; a mail server that hangs cannot
/// hold the process, and what is left undelivered is logged.
struct MailDeliveryService: Service {
    let queue: MailQueue
    var drainTimeout: Duration = .seconds(10)
    let logger: Logger

    func run() async throws {
        let delivery = Task { await queue.run() }
        await withTaskCancellationHandler {
            try? await gracefulShutdown()
        } onCancel: {
            delivery.cancel()
        }
        queue.finish()
        let timeout = drainTimeout
        let deadline = Task {
            try await Task.sleep(for: timeout)
            delivery.cancel()
        }
        await delivery.value
        deadline.cancel()
        let left = queue.pending
        if left > 0 {
            logger.error("mail left undelivered at shutdown", metadata: ["mail.pending": .stringConvertible(left)])
        }
    }
}
