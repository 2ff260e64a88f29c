import Foundation
import GatehouseInfrastructure

/// Access tokens that already passed every check, keyed by their exact text, so a client calling
/// the API with the same token skips the parse and the RSA verification. Only verified tokens enter;
/// expiry is checked again on every hit; the session check (revocation) still runs on every request.
public final class VerifiedTokenCache: Sendable {
    /// A token's text as a dictionary key that hashes only its last 32 bytes (part of the signature,
    /// different in every token we sign) instead of the whole kilobyte; equality still compares the
    /// whole text. Only tokens that passed verification go in, so nobody can pick colliding keys.
    struct Key: Hashable, Sendable {
        let token: String

        func hash(into hasher: inout Hasher) {
            var token = token
            token.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0.suffix(32)))) }
        }

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.token == rhs.token }
    }

    private let entries = LockedBox<[Key: VerifiedAccessToken]>([:])
    private let maxEntries: Int

    /// Creates an empty cache.
    /// - Parameter maxEntries: At this many entries the cache is emptied before the next one goes in:
    ///   a bound on memory, not an eviction policy.
    public init(maxEntries: Int = 100_000) {
        self.maxEntries = maxEntries
    }

    func get(_ token: String, now: Date, leeway: TimeInterval) -> VerifiedAccessToken? {
        let key = Key(token: token)
        guard let hit = entries.withLock({ $0[key] }) else { return nil }
        return hit.expiresAt.timeIntervalSince(now) > -leeway ? hit : nil
    }

    func put(_ token: String, _ verified: VerifiedAccessToken) {
        entries.withLock { entries in
            if entries.count >= maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[Key(token: token)] = verified
        }
    }
}
