import Foundation
import GatehouseCore
import Logging
import ServiceLifecycle

/// Housekeeping in the app's service group: deletes expired codes, sessions and counters, and reloads
/// the signing keys so a rotation made by another instance (or `gatehouse keys rotate`) is picked up.
struct MaintenanceService: Service {
    let store: any GatehouseStore
    let keys: SigningKeyManager?
    let keyring: Keyring?
    let clock: any TimeSource
    let logger: Logger
    var purgeInterval: Duration = .seconds(600)
    var keyReloadInterval: Duration = .seconds(60)

    func run() async throws {
        await cancelWhenGracefulShutdown { await self.loop() }
    }

    private func loop() async {
        var sincePurge = Duration.zero
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: keyReloadInterval)
            } catch {
                return
            }
            sincePurge += keyReloadInterval
            if let keys, let keyring {
                do {
                    keyring.replace(with: try await keys.load())
                } catch {
                    logger.warning("could not reload signing keys", metadata: ["error": .string("\(error)")])
                }
            }
            if sincePurge >= purgeInterval {
                sincePurge = .zero
                do {
                    let removed = try await store.purgeExpired(now: clock.now())
                    if removed > 0 { logger.info("purged expired records", metadata: ["count": .stringConvertible(removed)]) }
                } catch {
                    logger.warning("purge failed", metadata: ["error": .string("\(error)")])
                }
            }
        }
    }
}

/// Closes the store when the service group shuts down.
struct StoreCloserService: Service {
    let close: @Sendable () async throws -> Void

    func run() async throws {
        try? await gracefulShutdown()
        try await close()
    }
}
