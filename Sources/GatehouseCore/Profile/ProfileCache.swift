import Foundation
import GatehouseInfrastructure

/// Recently read profiles, so GET /me usually costs no database round trip. Like the session cache,
/// this process's own writes invalidate entries at once; the TTL bounds how long a change made by
/// another instance takes to show here.
public final class ProfileCache: Sendable {
    private struct Entry {
        var view: ProfileView
        var cachedAt: Date
    }

    private let clock: any TimeSource
    private let ttl: TimeInterval
    private let maxEntries: Int
    private struct State {
        var entries: [String: Entry] = [:]
        /// False while another instance's changes might be missed (the cross-instance channel is down):
        /// nothing is served from the cache then, and nothing is added.
        var trusted = true
    }

    /// One lock for both, so a GET /me cache hit takes one lock.
    private let state = LockedBox(State())

    /// An empty cache.
    /// - Parameters:
    ///   - clock: Ages the entries.
    ///   - ttl: Seconds an entry is served; 0 or less turns the cache off.
    ///   - maxEntries: Bound on memory: when full, the whole cache is cleared (cheap, and a miss only costs a read).
    public init(clock: any TimeSource, ttl: TimeInterval, maxEntries: Int = 50_000) {
        self.clock = clock
        self.ttl = ttl
        self.maxEntries = maxEntries
    }

    func get(_ sub: String) -> ProfileView? {
        guard ttl > 0, let entry = state.withLock({ $0.trusted ? $0.entries[sub] : nil }) else { return nil }
        let age = clock.now().timeIntervalSince(entry.cachedAt)
        return age >= 0 && age < ttl ? entry.view : nil
    }

    func put(_ view: ProfileView) {
        guard ttl > 0 else { return }
        let now = clock.now()
        state.withLock { state in
            guard state.trusted else { return }
            if state.entries.count >= maxEntries { state.entries.removeAll(keepingCapacity: true) }
            state.entries[view.profile.sub] = Entry(view: view, cachedAt: now)
        }
    }

    /// Stops (false) or resumes (true) serving from the cache; either way it is emptied, since changes
    /// made elsewhere meanwhile may have been missed.
    /// - Parameter value: Whether other instances' changes reach this process.
    public func setTrusted(_ value: Bool) {
        state.withLock { state in
            state.trusted = value
            state.entries.removeAll()
        }
    }

    /// Forgets a user's profile (call after the change committed).
    /// - Parameter sub: The user whose profile changed or was deleted.
    public func invalidate(_ sub: String) {
        _ = state.withLock { $0.entries.removeValue(forKey: sub) }
    }
}
