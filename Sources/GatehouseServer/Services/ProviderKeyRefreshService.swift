import Foundation
import GatehouseCore
import Logging
import ServiceLifecycle

/// Keeps the providers' key sets fresh in the background: fetches them at start and again before
/// their `max-age` runs out, so sign-ins rarely wait for a fetch. Failures keep the last good set.
struct ProviderKeyRefreshService: Service {
    let keySets: [RemoteKeySet]
    let clock: any TimeSource
    let logger: Logger
    var interval: Duration = .seconds(30)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                for keys in keySets where keys.expiresAt.timeIntervalSince(clock.now()) < 300 {
                    _ = try? await keys.refresh()
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
