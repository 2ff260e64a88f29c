import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Testing

/// A liveness source that answers "live" (what the store said just before a sign-out committed),
/// but only when the test lets it: so a check can be held in flight while the session ends.
final class HeldLivenessSource: SessionLiveness {
    private let state = LockedBox<(entered: CheckedContinuation<Void, Never>?, release: CheckedContinuation<Void, Never>?, holding: Bool)>(
        (nil, nil, false)
    )
    private let reads = LockedBox(0)

    var readCount: Int { reads.withLock { $0 } }

    /// The next read waits in the source until ``release()``; returns once that read has begun.
    func holdNextRead() async {
        await withCheckedContinuation { entered in
            state.withLock { $0 = (entered, nil, true) }
        }
    }

    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = (nil, nil, false) }
            return state.release
        }
        waiter?.resume()
    }

    func isLive(sessionID: String, sub: String) async throws -> Bool {
        reads.withLock { $0 += 1 }
        let holding = state.withLock { $0.holding }
        if holding {
            await withCheckedContinuation { release in
                let entered = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    defer { state.entered = nil }
                    state.release = release
                    return state.entered
                }
                entered?.resume()
            }
        }
        return true
    }
}

@Suite("Session liveness cache")
struct SessionLivenessCacheTests {
    /// A check that read the store just before a sign-out committed used to re-cache the session as
    /// live after the invalidation (which only touched sessions already cached): the ended session's
    /// access tokens kept working for the cache TTL.
    @Test func aCheckInFlightDuringASignOutCannotReCacheTheSessionAsLive() async throws {
        let source = HeldLivenessSource()
        let cache = CachedSessionLiveness(source: source, clock: TestClock(), ttl: 5)
        let held = Task { try await cache.isLive(sessionID: "s1", sub: "u1") }
        await source.holdNextRead()
        cache.invalidate(sessionIDs: ["s1"])  // the sign-out commits while the check is in flight
        source.release()
        _ = try await held.value
        #expect(try await cache.isLive(sessionID: "s1", sub: "u1") == false)
    }

    /// The same for an account deletion: sessions of the user that were not cached yet must not be
    /// cached as live by a check that began before it.
    @Test func aCheckInFlightDuringAnAccountDeletionIsNotCached() async throws {
        let source = HeldLivenessSource()
        let cache = CachedSessionLiveness(source: source, clock: TestClock(), ttl: 5)
        let held = Task { try await cache.isLive(sessionID: "s2", sub: "u2") }
        await source.holdNextRead()
        cache.invalidate(sub: "u2")
        source.release()
        _ = try await held.value
        let readsBefore = source.readCount
        _ = try await cache.isLive(sessionID: "s2", sub: "u2")
        #expect(source.readCount == readsBefore + 1, "the next check asks the store again")
    }

    /// Ending a session that was never cached here still leaves a negative entry: the next check
    /// answers from the cache, whoever asks.
    @Test func invalidatingAnUncachedSessionCachesItAsEnded() async throws {
        let source = HeldLivenessSource()
        let cache = CachedSessionLiveness(source: source, clock: TestClock(), ttl: 5)
        cache.invalidate(sessionIDs: ["s3"])
        #expect(try await cache.isLive(sessionID: "s3", sub: "u3") == false)
        #expect(source.readCount == 0)
    }

    /// Positive answers are still cached when nothing ended meanwhile (the hot path stays a lookup).
    @Test func liveAnswersAreCached() async throws {
        let source = HeldLivenessSource()
        let cache = CachedSessionLiveness(source: source, clock: TestClock(), ttl: 5)
        #expect(try await cache.isLive(sessionID: "s4", sub: "u4"))
        #expect(try await cache.isLive(sessionID: "s4", sub: "u4"))
        #expect(source.readCount == 1)
    }
}
