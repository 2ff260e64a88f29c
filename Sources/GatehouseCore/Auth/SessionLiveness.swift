import Foundation

/// Answers whether the session an access token belongs to is still live, so tokens die with their
/// session (sign-out, reuse detection, password reset, deletion) instead of at `exp`.
public protocol SessionLiveness: Sendable {
    func isLive(sessionID: String, sub: String) async throws -> Bool
}

/// Caches liveness answers in-process for a short time so the hot path (every protected request)
/// usually costs a dictionary lookup. Changes made by this process invalidate entries at once; the
/// TTL only bounds how long another instance's change takes to be seen here.
public final class CachedSessionLiveness: SessionLiveness {
    struct Entry {
        var live: Bool
        var sub: String
        var checkedAt: Date
    }

    private let source: any SessionLiveness
    private let clock: any TimeSource
    private let ttl: TimeInterval
    private let maxEntries: Int
    private let cache = Mutex<[String: Entry]>([:])

    public init(source: any SessionLiveness, clock: any TimeSource, ttl: TimeInterval, maxEntries: Int = 100_000) {
        self.source = source
        self.clock = clock
        self.ttl = ttl
        self.maxEntries = maxEntries
    }

    public func isLive(sessionID: String, sub: String) async throws -> Bool {
        let now = clock.now()
        if ttl > 0, let entry = cache.withLock({ $0[sessionID] }), entry.sub == sub {
            // An ended session never comes back, so a negative answer can be kept longer.
            let age = now.timeIntervalSince(entry.checkedAt)
            if age >= 0, age < (entry.live ? ttl : ttl * 60) { return entry.live }
        }
        let live = try await source.isLive(sessionID: sessionID, sub: sub)
        if ttl > 0 {
            cache.withLock { cache in
                if cache.count >= maxEntries { cache.removeAll(keepingCapacity: true) }
                cache[sessionID] = Entry(live: live, sub: sub, checkedAt: now)
            }
        }
        return live
    }

    /// Marks sessions ended (this process ended them).
    public func invalidate(sessionIDs: [String]) {
        let now = clock.now()
        cache.withLock { cache in
            // Sessions not cached here are read from the store (already ended) on their next use.
            for id in sessionIDs where cache[id] != nil {
                cache[id]?.live = false
                cache[id]?.checkedAt = now
            }
        }
    }

    /// Drops what is cached about a user's sessions, so the next check reads the store (some of their
    /// sessions ended, others did not).
    public func forget(sub: String) {
        cache.withLock { cache in
            cache = cache.filter { $0.value.sub != sub }
        }
    }

    /// Marks every cached session of a user ended (account deleted).
    public func invalidate(sub: String) {
        cache.withLock { cache in
            for (id, entry) in cache where entry.sub == sub {
                cache[id]?.live = false
            }
        }
    }
}
