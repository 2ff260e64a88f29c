import Foundation
import GatehouseInfrastructure

/// Answers whether the session an access token belongs to is still live, so tokens die with their
/// session (sign-out, reuse detection, password reset, deletion) instead of at `exp`.
public protocol SessionLiveness: Sendable {
    /// Whether the session is active and belongs to `sub`.
    /// - Parameters:
    ///   - sessionID: The token's `origin_jti`.
    ///   - sub: The token's subject; a session of another user is not live for it.
    /// - Returns: `true` only for an active session of `sub`.
    /// - Throws: The store's error when it cannot answer; callers must refuse rather than assume live.
    func isLive(sessionID: String, sub: String) async throws -> Bool
}

/// Caches liveness answers in-process for a short time so the hot path (every protected request)
/// usually costs a dictionary lookup. Changes made by this process invalidate entries at once; the
/// TTL only bounds how long another instance's change takes to be seen here.
///
/// An invalidation always leaves a negative entry (whether or not the session was cached), and a
/// positive answer read from the store is cached only if no invalidation happened while it was being
/// read: a check that read the store just before a sign-out committed can never re-cache the ended
/// session as live.
public final class CachedSessionLiveness: SessionLiveness {
    struct Entry {
        var live: Bool
        /// The session's user; empty for a negative entry written by ``invalidate(sessionIDs:)``
        /// for a session that was not cached (an ended session is ended whoever asks).
        var sub: String
        var checkedAt: Date
    }

    struct State {
        var entries: [String: Entry] = [:]
        /// Bumped by every invalidation: a store answer read across a bump is not cached as live.
        var epoch: UInt64 = 0
        /// False while another instance's changes might be missed: every check reads the store.
        var trusted = true
    }

    private let source: any SessionLiveness
    private let clock: any TimeSource
    private let ttl: TimeInterval
    private let maxEntries: Int
    private let state = LockedBox(State())

    /// A cache in front of `source`.
    /// - Parameters:
    ///   - source: What answers on a miss (the store).
    ///   - clock: Ages the entries.
    ///   - ttl: Seconds a live answer is trusted (an ended one, 60 times as long); 0 or less turns caching off.
    ///   - maxEntries: Bound on memory: when full, the whole cache is cleared.
    public init(source: any SessionLiveness, clock: any TimeSource, ttl: TimeInterval, maxEntries: Int = 100_000) {
        self.source = source
        self.clock = clock
        self.ttl = ttl
        self.maxEntries = maxEntries
    }

    /// Answers from the cache when a fresh entry exists, else asks the source and caches its answer
    /// (a live answer only if no invalidation happened meanwhile).
    /// - Parameters:
    ///   - sessionID: The token's `origin_jti`.
    ///   - sub: The token's subject; a cached live entry of another user is not reused.
    /// - Returns: `true` only for an active session of `sub`.
    /// - Throws: The source's error on a miss.
    public func isLive(sessionID: String, sub: String) async throws -> Bool {
        let now = clock.now()
        let (cached, epoch, trusted) = state.withLock { ($0.entries[sessionID], $0.epoch, $0.trusted) }
        if ttl > 0, trusted, let entry = cached, entry.sub == sub || !entry.live {
            // An ended session never comes back, so a negative answer can be kept longer.
            let age = now.timeIntervalSince(entry.checkedAt)
            if age >= 0, age < (entry.live ? ttl : ttl * 60) { return entry.live }
        }
        let live = try await source.isLive(sessionID: sessionID, sub: sub)
        if ttl > 0, trusted {
            state.withLock { state in
                // Something was ended while the store was read: do not trust a positive answer.
                if live, state.epoch != epoch { return }
                if state.entries.count >= maxEntries { state.entries.removeAll(keepingCapacity: true) }
                state.entries[sessionID] = Entry(live: live, sub: sub, checkedAt: now)
            }
        }
        return live
    }

    /// Stops (false) or resumes (true) answering from the cache; either way it is emptied, since
    /// sessions ended elsewhere meanwhile may have been missed.
    /// - Parameter value: Whether other instances' changes reach this process.
    public func setTrusted(_ value: Bool) {
        state.withLock { state in
            state.trusted = value
            state.epoch &+= 1
            state.entries.removeAll()
        }
    }

    /// Marks sessions ended (this process or another one ended them), cached or not.
    /// - Parameter sessionIDs: The ended sessions.
    public func invalidate(sessionIDs: [String]) {
        let now = clock.now()
        state.withLock { state in
            state.epoch &+= 1
            for id in sessionIDs {
                if state.entries.count >= maxEntries { state.entries.removeAll(keepingCapacity: true) }
                state.entries[id] = Entry(live: false, sub: state.entries[id]?.sub ?? "", checkedAt: now)
            }
        }
    }

    /// Drops what is cached about a user's sessions, so the next check reads the store (some of their
    /// sessions ended, others did not).
    /// - Parameter sub: The user.
    public func forget(sub: String) {
        state.withLock { state in
            state.epoch &+= 1
            state.entries = state.entries.filter { $0.value.sub != sub }
        }
    }

    /// Marks every cached session of a user ended (account deleted); sessions not cached are read
    /// from the store (where the user is gone) on their next use.
    /// - Parameter sub: The deleted user.
    public func invalidate(sub: String) {
        state.withLock { state in
            state.epoch &+= 1
            for (id, entry) in state.entries where entry.sub == sub {
                state.entries[id]?.live = false
            }
        }
    }
}

extension CachedSessionLiveness {
    /// Forgets every cached answer (tests that share one app empty it between tests).
    package func removeAll() {
        state.withLock { state in
            state.epoch &+= 1
            state.entries.removeAll()
        }
    }
}
