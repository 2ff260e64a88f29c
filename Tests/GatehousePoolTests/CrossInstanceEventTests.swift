import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Testing

/// Records what it receives.
final class RecordingSubscriber: DomainEventSubscriber {
    let events = LockedBox<[DomainEvent]>([])
    func receive(_ event: DomainEvent) { events.withLock { $0.append(event) } }
}

/// The core side of cross-instance invalidation (issue 14): events travel as short JSON texts, a
/// remote event reaches the caches but is never relayed back, and caches that may have missed a
/// remote event stop answering.
@Suite("Events across instances: wire, relays, cache trust")
struct CrossInstanceEventTests {
    @Test func everyEventSurvivesTheWire() {
        let events: [DomainEvent] = [
            .sessionsEnded(ids: ["a", "b"]), .sessionsEnded(ids: []), .sessionsChanged(sub: "s1"), .userDeleted(sub: "s2"),
            .profileChanged(sub: "s3"),
        ]
        for event in events { #expect(DomainEvent(wire: event.wire) == event, "\(event.wire)") }
        for junk in ["", "{}", #"{"type":"sessions_ended"}"#, #"{"type":"nope","sub":"x"}"#, "[1]"] {
            #expect(DomainEvent(wire: junk) == nil, "\(junk)")
        }
    }

    @Test func remoteEventsReachSubscribersButNotRelays() {
        let relayed = LockedBox<[DomainEvent]>([])
        let local = RecordingSubscriber()
        let events = DomainEvents(subscribers: [local, EventBroadcast { event in relayed.withLock { $0.append(event) } }])
        events.publish(.profileChanged(sub: "here"))
        events.applyRemote([.profileChanged(sub: "elsewhere")])
        #expect(local.events.withLock { $0 } == [.profileChanged(sub: "here"), .profileChanged(sub: "elsewhere")])
        #expect(relayed.withLock { $0 } == [.profileChanged(sub: "here")], "a remote event is not echoed back")
    }

    /// Counts store reads.
    final class CountingSource: SessionLiveness {
        let reads = LockedBox(0)
        func isLive(sessionID: String, sub: String) async throws -> Bool {
            reads.withLock { $0 += 1 }
            return true
        }
    }

    @Test func anUntrustedCacheReadsTheStoreEveryTime() async throws {
        let source = CountingSource()
        let cache = CachedSessionLiveness(source: source, clock: TestClock(), ttl: 5)
        _ = try await cache.isLive(sessionID: "s", sub: "u")
        _ = try await cache.isLive(sessionID: "s", sub: "u")
        #expect(source.reads.withLock { $0 } == 1, "trusted: the second check is a cache hit")
        cache.setTrusted(false)
        _ = try await cache.isLive(sessionID: "s", sub: "u")
        _ = try await cache.isLive(sessionID: "s", sub: "u")
        #expect(source.reads.withLock { $0 } == 3, "untrusted: every check reads the store")
        cache.setTrusted(true)
        _ = try await cache.isLive(sessionID: "s", sub: "u")
        #expect(source.reads.withLock { $0 } == 4, "trusted again, but emptied: events may have been missed")
    }
}
