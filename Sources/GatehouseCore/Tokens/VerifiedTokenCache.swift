import Foundation
import GatehouseInfrastructure

/// Access tokens that already passed every check, keyed by their exact text, so a client calling
/// the API with the same token skips the parse and the RSA verification. Only verified tokens enter;
/// expiry is checked again on every hit; the session check (revocation) still runs on every request.
public final class VerifiedTokenCache: Sendable {
    private let entries = LockedBox<[String: VerifiedAccessToken]>([:])
    private let maxEntries: Int

    /// Creates an empty cache.
    /// - Parameter maxEntries: At this many entries the cache is emptied before the next one goes in:
    ///   a bound on memory, not an eviction policy.
    public init(maxEntries: Int = 100_000) {
        self.maxEntries = maxEntries
    }

    func get(_ token: String, now: Date, leeway: TimeInterval) -> VerifiedAccessToken? {
        guard let hit = entries.withLock({ $0[token] }) else { return nil }
        return hit.expiresAt.timeIntervalSince(now) > -leeway ? hit : nil
    }

    func put(_ token: String, _ verified: VerifiedAccessToken) {
        entries.withLock { entries in
            if entries.count >= maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[token] = verified
        }
    }
}
