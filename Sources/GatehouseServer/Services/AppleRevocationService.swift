import GatehouseCore
import Logging
import ServiceLifecycle

/// Works through the Apple revocation queue: retries that failed while Apple was unreachable.
struct AppleRevocationService: Service {
    let vault: AppleTokenVault
    let logger: Logger
    var interval: Duration = .seconds(30)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await vault.processDue(logger: logger)
                } catch {
                    logger.warning("could not read the Apple revocation queue", metadata: ["error": .string("\(error)")])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
