import Foundation
import GatehouseCore
import Logging
import ServiceLifecycle

/// Housekeeping in the app's service group: deletes expired codes, sessions and counters, and reloads
/// the signing keys so a rotation made by another instance (or `gatehouse keys rotate`) is picked up.
/// With several instances on one database the purge runs once per interval across them all: the
/// instance that takes the `maintenance.purge` lease purges, the others skip that round.
struct MaintenanceService: Service {
    let store: any GatehouseStore
    let keys: SigningKeyManager?
    let keyring: Keyring?
    let clock: any TimeSource
    let logger: Logger
    /// How long audit-log rows are kept (`GATEHOUSE_AUDIT_RETENTION_DAYS`, 90 by default).
    var auditRetention: TimeInterval = 90 * 86_400
    var purgeInterval: Duration = .seconds(600)
    /// This process, as the purge lease's holder.
    var instance = UUID().uuidString
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
                    try await keyring.reload { try await keys.load() }
                } catch {
                    logger.warning("could not reload signing keys", metadata: ["error": .string("\(error)")])
                }
            }
            if sincePurge >= purgeInterval {
                sincePurge = .zero
                do {
                    if let removed = try await purgeIfFirst(), removed > 0 {
                        logger.info("purged expired records", metadata: ["count": .stringConvertible(removed)])
                    }
                } catch {
                    logger.warning("purge failed", metadata: ["error": .string("\(error)")])
                }
            }
        }
    }

    /// Purges unless another instance did within most of the interval.
    /// - Returns: Rows removed, or nil when another instance holds this round's lease.
    /// - Throws: The store's error.
    func purgeIfFirst() async throws -> Int? {
        let now = clock.now()
        let seconds = Double(purgeInterval.components.seconds) * 0.9
        let holder = instance
        let mine = try await store.write {
            try await $0.acquireLease(name: "maintenance.purge", holder: holder, until: now.addingTimeInterval(seconds), now: now)
        }
        guard mine else { return nil }
        let cutoff = now.addingTimeInterval(-auditRetention)
        let pruned = try await store.write { try await $0.pruneAudit(before: cutoff) }
        return try await store.purgeExpired(now: now) + pruned
    }
}
