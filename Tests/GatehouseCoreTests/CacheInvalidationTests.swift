import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Testing

/// A liveness source that always says "live" and counts its reads: whatever the cache answers
/// otherwise came from an invalidation, not from the store.
final class AlwaysLiveSource: SessionLiveness {
    private let reads = LockedBox(0)
    var readCount: Int { reads.withLock { $0 } }

    func isLive(sessionID: String, sub: String) async throws -> Bool {
        reads.withLock { $0 += 1 }
        return true
    }
}

/// Records every event it receives.
final class RecordingSubscriber: DomainEventSubscriber {
    private let received = LockedBox<[DomainEvent]>([])
    var events: [DomainEvent] { received.withLock { $0 } }

    func receive(_ event: DomainEvent) {
        received.withLock { $0.append(event) }
    }
}

/// Domain events are the one road to cache invalidation: the subscriber turns each event into the
/// liveness and profile invalidation it stands for, at once (no waiting for a TTL).
@Suite("Core: cache invalidation driven by domain events")
struct CacheInvalidationTests {
    @Test func endedSessionsAreNotLiveAtOnce() async throws {
        let clock = TestClock()
        let source = AlwaysLiveSource()
        let liveness = CachedSessionLiveness(source: source, clock: clock, ttl: 300)
        let events = DomainEvents(subscribers: [CacheInvalidation(liveness: liveness, profiles: nil)])
        #expect(try await liveness.isLive(sessionID: "s1", sub: "u1"))
        #expect(try await liveness.isLive(sessionID: "s2", sub: "u1"))
        events.publish(.sessionsEnded(ids: ["s1"]))
        #expect(try await liveness.isLive(sessionID: "s1", sub: "u1") == false, "ended, though the TTL has not run out")
        #expect(try await liveness.isLive(sessionID: "s2", sub: "u1"), "another session is untouched")
        #expect(source.readCount == 2, "both answers came from the cache")
    }

    @Test func aDeletedUsersCachedSessionsAreNotLive() async throws {
        let clock = TestClock()
        let liveness = CachedSessionLiveness(source: AlwaysLiveSource(), clock: clock, ttl: 300)
        let events = DomainEvents(subscribers: [CacheInvalidation(liveness: liveness, profiles: nil)])
        #expect(try await liveness.isLive(sessionID: "s1", sub: "gone"))
        #expect(try await liveness.isLive(sessionID: "s2", sub: "kept"))
        events.publish(.userDeleted(sub: "gone"))
        #expect(try await liveness.isLive(sessionID: "s1", sub: "gone") == false)
        #expect(try await liveness.isLive(sessionID: "s2", sub: "kept"))
    }

    @Test func changedSessionsOfAUserAreReadAgain() async throws {
        let clock = TestClock()
        let source = AlwaysLiveSource()
        let liveness = CachedSessionLiveness(source: source, clock: clock, ttl: 300)
        let events = DomainEvents(subscribers: [CacheInvalidation(liveness: liveness, profiles: nil)])
        _ = try await liveness.isLive(sessionID: "s1", sub: "u1")
        _ = try await liveness.isLive(sessionID: "s1", sub: "u1")
        #expect(source.readCount == 1)
        events.publish(.sessionsChanged(sub: "u1"))
        _ = try await liveness.isLive(sessionID: "s1", sub: "u1")
        #expect(source.readCount == 2, "the user's cached answers were dropped")
    }

    @Test func everySubscriberHearsEveryEventInOrder() {
        let first = RecordingSubscriber()
        let second = RecordingSubscriber()
        let events = DomainEvents(subscribers: [first])
        events.subscribe(second)
        events.publish([.profileChanged(sub: "a"), .userDeleted(sub: "b")])
        events.publish([])
        #expect(first.events == [.profileChanged(sub: "a"), .userDeleted(sub: "b")])
        #expect(second.events == first.events)
    }
}
