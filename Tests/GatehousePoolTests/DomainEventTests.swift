import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseStore
import GatehouseTesting
import Testing

/// The use cases publish what a flow ended or changed, and the caches follow from those events
/// alone: the strategies invalidate nothing themselves.
@Suite("Pool: use cases publish domain events", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct DomainEventTests {
    @Test func signOutEverywherePublishesTheEndedSessionsAndTheirTokensDieAtOnce() async throws {
        try await PoolHarness.run { h in
            let recorder = RecordingEvents()
            h.domainEvents.subscribe(recorder)
            let laptop = try await h.confirmedUser()
            let phone = try await h.passwords.signIn(email: "alice@example.com", password: "correct horse 9", client: h.client, logger: h.logger)
            let principal = try await h.me(laptop)
            _ = try await h.me(phone)  // both cached as live (TTL 5 s; the clock does not move)
            try await h.sessions.signOutEverywhere(principal: principal, logger: h.logger)
            let ended = try #require(
                recorder.events.compactMap { event -> [String]? in
                    if case .sessionsEnded(let ids) = event { return ids } else { return nil }
                }.first
            )
            #expect(Set(ended) == [principal.sessionID, try await sessionID(of: phone)])
            await #expect { try await h.me(laptop) } throws: { GatehouseError.Code.of($0) == .unauthorized }
            await #expect { try await h.me(phone) } throws: { GatehouseError.Code.of($0) == .unauthorized }
        }
    }

    @Test func deletionAndProfileChangesArePublished() async throws {
        try await PoolHarness.run { h in
            let recorder = RecordingEvents()
            h.domainEvents.subscribe(recorder)
            let tokens = try await h.confirmedUser()
            let principal = try await h.me(tokens)
            _ = try await h.profiles.update(for: principal, fullName: .some("  Alice L.  "), logger: h.logger)
            #expect(recorder.events.last == .profileChanged(sub: principal.sub))
            try await h.accounts.delete(for: principal, client: h.client, logger: h.logger)
            #expect(recorder.events.last == .userDeleted(sub: principal.sub))
            await #expect { try await h.me(tokens) } throws: { GatehouseError.Code.of($0) == .unauthorized }
        }
    }

    @Test func aCachedProfileIsReadAgainAfterAChange() async throws {
        try await PoolHarness.run { h in
            let cache = ProfileCache(clock: h.clock, ttl: 300)
            h.domainEvents.subscribe(CacheInvalidation(liveness: h.liveness, profiles: cache))
            let profiles = Profiles(store: h.store, strategy: h.pool, clock: h.clock, cache: cache, domainEvents: h.domainEvents)
            let principal = try await h.me(try await h.confirmedUser())
            #expect(try await profiles.view(for: principal, logger: h.logger).profile.fullName == "Alice")
            // A change through another instance of the use case reaches this cache through the event.
            _ = try await h.profiles.update(for: principal, fullName: .some("Alice Liddell"), logger: h.logger)
            #expect(try await profiles.view(for: principal, logger: h.logger).profile.fullName == "Alice Liddell")
        }
    }

    @Test func aReusedRefreshTokenPublishesTheSessionItEnded() async throws {
        try await PoolHarness.run { h in
            let recorder = RecordingEvents()
            h.domainEvents.subscribe(recorder)
            let first = try await h.confirmedUser()
            let principal = try await h.me(first)
            _ = try await h.sessions.refresh(refreshToken: first.refreshToken, client: h.client, logger: h.logger)
            h.clock.advance(by: 60)  // past the reuse grace
            await #expect { try await h.sessions.refresh(refreshToken: first.refreshToken, client: h.client, logger: h.logger) } throws: {
                GatehouseError.Code.of($0) == .invalidGrant
            }
            #expect(recorder.events == [.sessionsEnded(ids: [principal.sessionID])])
            await #expect { try await h.me(first) } throws: { GatehouseError.Code.of($0) == .unauthorized }
        }
    }

    private func sessionID(of tokens: AuthTokens) throws -> String {
        try #require(try CompactJWS(parsing: tokens.accessToken).claims["origin_jti"]?.stringValue)
    }
}

/// Records every event it receives.
final class RecordingEvents: DomainEventSubscriber {
    private let received = LockedBox<[DomainEvent]>([])
    var events: [DomainEvent] { received.withLock { $0 } }

    func receive(_ event: DomainEvent) {
        received.withLock { $0.append(event) }
    }
}
