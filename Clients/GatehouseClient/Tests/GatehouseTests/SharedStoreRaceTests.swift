import Foundation
import Testing

@testable import Gatehouse

/// Races between clients sharing one store while a refresh is in flight (review of issue 15, findings 3 and 4).
/// Ordering comes from gates the stub server waits on, never from sleeps.
@Suite("Shared store: races with a refresh in flight", .timeLimit(.minutes(1)))
struct SharedStoreRaceTests {
    /// The rotating server, answering sign-in with session 9, that holds the refresh of `token` at `proceed`
    /// once it has signalled `arrived`.
    static func heldServer(_ token: String, arrived: Gate, proceed: Gate) -> StubTransport {
        let rotating = SharedStoreTests.rotatingServer()
        return StubTransport { request in
            if request.url!.path == "/auth/signin" { return (200, [:], StubTransport.tokens("9")) }
            if request.url!.path == "/auth/refresh", request.jsonBody["refresh_token"] as? String == token {
                arrived.release()
                await proceed.wait()
            }
            let (data, response) = try await rotating.send(request)
            return (response.statusCode, [:], data)
        }
    }

    func client(_ transport: StubTransport, _ store: any TokenStore, _ coordinator: (any RefreshCoordinator)? = nil) -> GatehouseClient {
        SharedStoreTests().client(transport, store, coordinator)
    }

    static func refreshTokens(_ transport: StubTransport) -> [String] {
        transport.requests(to: "/auth/refresh").compactMap { $0.jsonBody["refresh_token"] as? String }
    }

    // Finding 3: the shared refresh is keyed by the token it presents after adopting a newer stored session.
    @Test func aRefreshThatAdoptedAStoredSessionIsJoinedByItsHolders() async throws {
        let store = InMemoryTokenStore(SharedStoreTests.expiring)
        let arrived = Gate()
        let proceed = Gate()
        let transport = Self.heldServer("refresh-2", arrived: arrived, proceed: proceed)
        let app = client(transport, store)
        try await app.restore()  // holds refresh-1; another process then rotates it and stores refresh-2, about to expire too
        try store.save(Session(idToken: "id-2", accessToken: "access-2", refreshToken: "refresh-2", expiresAt: SharedStoreTests.expiring.expiresAt))
        let first = Task { try await app.validAccessToken() }
        await arrived.wait()
        #expect(await app.refreshing?.token == "refresh-2", "keyed by the adopted token, not refresh-1")
        let second = Task { try await app.validAccessToken() }  // holds refresh-2 now: joins, or finds access-3
        proceed.release()
        #expect(try await first.value == "access-3")
        #expect(try await second.value == "access-3")
        #expect(Self.refreshTokens(transport) == ["refresh-2"])
    }

    // Finding 3: a caller that read the session before this client moved on gets the newer session.
    @Test func aCallerHoldingAnOlderTokenGetsTheClientsNewerSession() async throws {
        let store = InMemoryTokenStore(SharedStoreTests.expiring)
        let transport = SharedStoreTests.rotatingServer()
        let app = client(transport, store)
        let stale = try #require(try await app.restore())
        #expect(try await app.refresh().refreshToken == "refresh-2")
        #expect(try await app.refreshed(from: stale).refreshToken == "refresh-2", "not .notSignedIn")
        #expect(Self.refreshTokens(transport) == ["refresh-1"])
    }

    // Finding 4: a sign-out by another client while this one's refresh is in flight is not undone by it.
    @Test func aSignOutDuringAnotherClientsRefreshStays() async throws {
        let store = InMemoryTokenStore(SharedStoreTests.expiring)
        let arrived = Gate()
        let proceed = Gate()
        let transport = Self.heldServer("refresh-1", arrived: arrived, proceed: proceed)
        let app = client(transport, store)
        let widget = client(transport, store)
        try await app.restore()
        let refresh = Task { try await widget.validAccessToken() }
        await arrived.wait()
        try await app.signOut()
        proceed.release()
        await #expect(throws: GatehouseError.notSignedIn) { _ = try await refresh.value }
        #expect(try store.load() == nil, "the rotated session was not written back")
        #expect(widget.currentSession == nil && app.currentSession == nil)
    }

    // Finding 4: a sign-in by another client while this one's refresh is in flight wins; this one adopts it.
    @Test func aSignInDuringAnotherClientsRefreshIsAdopted() async throws {
        let store = InMemoryTokenStore(SharedStoreTests.expiring)
        let arrived = Gate()
        let proceed = Gate()
        let transport = Self.heldServer("refresh-1", arrived: arrived, proceed: proceed)
        let app = client(transport, store)
        let widget = client(transport, store)
        let refresh = Task { try await widget.validAccessToken() }
        await arrived.wait()
        try await app.signIn(email: "a@example.com", password: "pw")
        proceed.release()
        #expect(try await refresh.value == "access-9")
        #expect(try store.load()?.refreshToken == "refresh-9" && widget.currentSession?.refreshToken == "refresh-9")
    }

    // Finding 4: sign-in and sign-out write the store inside the coordinator's exclusive section.
    @Test func signInAndSignOutWriteTheStoreUnderTheCoordinator() async throws {
        let coordinator = CountingCoordinator()
        let transport = Self.heldServer("none", arrived: Gate(), proceed: Gate())
        let app = client(transport, InMemoryTokenStore(), coordinator)
        try await app.signIn(email: "a@example.com", password: "pw")
        #expect(coordinator.sections == 1)
        try await app.signOut()
        #expect(coordinator.sections == 2)
    }

    final class CountingCoordinator: RefreshCoordinator, @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var sections: Int { lock.withLock { count } }

        func withExclusiveRefresh<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
            lock.withLock { count += 1 }
            return try await body()
        }
    }
}
