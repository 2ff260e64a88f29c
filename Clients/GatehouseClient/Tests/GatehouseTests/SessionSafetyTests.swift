import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session's correctness under failures: which 401s refresh, a store that refuses writes or
/// deletions, and a refresh left over from an earlier session (issue 15, bugs 1 to 4).
@Suite("Session safety: 401s, store failures, stale refreshes")
struct SessionSafetyTests {
    static let stored = Session(idToken: "id-1", accessToken: "access-1", refreshToken: "refresh-1", expiresAt: .distantFuture)

    func client(_ transport: StubTransport, store: any TokenStore, clock: ManualClock = ManualClock()) -> GatehouseClient {
        GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport, now: { clock.now })
    }

    @Test func aWrongCurrentPasswordIsNotRetriedAfterARefresh() async throws {
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/password/change": return (401, [:], StubTransport.error("invalid_credentials", "Incorrect password."))
            case "/auth/refresh": return (200, [:], StubTransport.tokens("2"))
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        let client = client(transport, store: InMemoryTokenStore(Self.stored))
        await expectError(.invalidCredentials) { try await client.changePassword(current: "wrong", new: "new password 1") }
        #expect(transport.requests(to: "/auth/password/change").count == 1, "one attempt, counted once by the throttle")
        #expect(transport.requests(to: "/auth/refresh").isEmpty, "the refresh token is not rotated")
    }

    @Test func onlyUnauthorizedIsRetriedAfterARefresh() async throws {
        let transport = StubTransport { request in
            if request.url!.path == "/auth/refresh" { return (200, [:], StubTransport.tokens("2")) }
            if request.url!.path == "/api/refused" { return (401, [:], StubTransport.error("invalid_credentials")) }
            if request.value(forHTTPHeaderField: "Authorization") == "Bearer access-2" { return (200, [:], StubTransport.json([:])) }
            if request.url!.path == "/api/bare" { return (401, [:], Data()) }
            return (401, ["WWW-Authenticate": #"Bearer error="invalid_token""#], StubTransport.error("unauthorized"))
        }
        let client = client(transport, store: InMemoryTokenStore(Self.stored))
        try await client.changePassword(current: "right", new: "new password 1")
        #expect(transport.requests(to: "/auth/password/change").count == 2 && transport.requests(to: "/auth/refresh").count == 1)
        // Your own API: a 401 without a contract body (or with `unauthorized`) is retried; another code is not.
        #expect(try await client.send(URLRequest(url: base.appendingPathComponent("api/refused"))).1.statusCode == 401)
        #expect(transport.requests(to: "/api/refused").count == 1 && transport.requests(to: "/auth/refresh").count == 1)
    }
}

extension SessionSafetyTests {
    /// Answers refresh-N with tokens N+1, like the server's rotation.
    static func rotatingServer() -> StubTransport {
        StubTransport { request in
            if request.url!.path == "/auth/signin" { return (200, [:], StubTransport.tokens("90")) }
            guard request.url!.path == "/auth/refresh" else { return (204, [:], Data()) }
            let presented = request.jsonBody["refresh_token"] as? String ?? ""
            guard let n = Int(presented.dropFirst("refresh-".count)) else { return (401, [:], StubTransport.error("invalid_grant")) }
            return (200, [:], StubTransport.tokens("\(n + 1)"))
        }
    }

    @Test func aRefreshWhoseStoreWriteFailsKeepsTheNewSession() async throws {
        let store = FlakyStore(Self.stored)
        let transport = Self.rotatingServer()
        let client = client(transport, store: store)
        store.fail(save: true)
        await expectError(isStorage) { try await client.refresh() }
        #expect(try await client.validAccessToken() == "access-2", "the new session is kept in memory")
        #expect(store.saves >= 2, "the write was retried")
        await expectError(isStorage) { try await client.refresh() }
        #expect(transport.requests(to: "/auth/refresh").last?.jsonBody["refresh_token"] as? String == "refresh-2")
        store.fail()
        _ = try await client.validAccessToken()
        #expect(store.stored?.refreshToken == "refresh-3", "the write succeeds once the store allows it")
    }
}

extension SessionSafetyTests {
    @Test func aSignOutWhoseStoreDeletionFailsStillEndsTheSession() async throws {
        let store = FlakyStore(Self.stored)
        let transport = Self.rotatingServer()
        let client = client(transport, store: store)
        let events = client.events
        _ = try await client.validAccessToken()
        store.fail(clear: true)
        await expectError(isStorage) { try await client.signOut() }
        #expect(transport.requests(to: "/auth/signout").first?.jsonBody["refresh_token"] as? String == "refresh-1", "the server ends it")
        #expect(await client.isSignedIn == false)
        store.fail()
        #expect(await client.isSignedIn == false)
        #expect(store.stored == nil, "the deletion is retried, so the next launch is signed out")
        try await client.signIn(email: "a@example.com", password: "pw")  // a later event, so a missing one cannot hang the test
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut)
    }
}

extension SessionSafetyTests {
    @Test func aRefreshLeftFromThePreviousSessionIsNotJoinedByTheNewOne() async throws {
        let gate = Gate()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let transport = StubTransport { request in
            if request.url!.path == "/auth/signin" { return (200, [:], StubTransport.tokens("90")) }
            switch request.jsonBody["refresh_token"] as? String {
            case "refresh-1":
                startedContinuation.yield()
                await gate.wait()
                return (200, [:], StubTransport.tokens("2"))
            case "refresh-90":
                gate.release()
                return (200, [:], StubTransport.tokens("91"))
            default: return (401, [:], StubTransport.error("invalid_grant"))
            }
        }
        let client = client(transport, store: InMemoryTokenStore(Self.stored))
        let old = Task { try await client.refresh() }
        var iterator = started.makeAsyncIterator()
        await iterator.next()  // the old session's refresh is in flight
        try await client.signIn(email: "a@example.com", password: "pw")
        let fresh = try await client.refresh()
        #expect(fresh.refreshToken == "refresh-91", "the new session refreshed with its own token")
        _ = try? await old.value
        #expect(client.currentSession?.refreshToken == "refresh-91", "the old refresh did not overwrite it")
    }
}

extension SessionSafetyTests {
    @Test func aSignOutDuringARefreshWins() async throws {
        let gate = Gate()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let transport = StubTransport { request in
            if request.url!.path == "/auth/signin" { return (200, [:], StubTransport.tokens("90")) }
            guard request.url!.path == "/auth/refresh" else { return (204, [:], Data()) }
            startedContinuation.yield()
            await gate.wait()
            return (200, [:], StubTransport.tokens("2"))
        }
        let store = InMemoryTokenStore(Self.stored)
        let client = client(transport, store: store)
        let events = client.events
        let refresh = Task { try await client.refresh() }
        var iterator = started.makeAsyncIterator()
        await iterator.next()  // the refresh is in flight
        try await client.signOut()
        gate.release()
        await #expect(throws: GatehouseError.notSignedIn) { try await refresh.value }
        #expect(try store.load() == nil && client.currentSession == nil, "the refreshed tokens were not kept")
        try await client.signIn(email: "a@example.com", password: "pw")  // a later event, so a stray one cannot hide
        var received = events.makeAsyncIterator()
        #expect(await received.next() == .signedOut)
        #expect(await received.next() == .signedIn, "no tokenRefreshed in between")
    }
}

extension SessionSafetyTests {
    /// A server that refuses every access token, fresh ones included, while it still rotates refresh tokens.
    static func refusingServer() -> StubTransport {
        StubTransport { request in
            if request.url!.path == "/auth/refresh" { return (200, [:], StubTransport.tokens("2")) }
            if request.url!.path == "/auth/signin" { return (200, [:], StubTransport.tokens("90")) }
            let challenge = ["WWW-Authenticate": #"Bearer error="invalid_token""#]
            return (401, challenge, StubTransport.error("unauthorized", "A valid access token is required."))
        }
    }

    /// One refresh, one refusal of the new token: the session ends instead of rotating on every later call.
    @Test func aFreshTokenThatIsRefusedTooEndsTheSession() async throws {
        let transport = Self.refusingServer()
        let store = InMemoryTokenStore(Self.stored)
        let client = client(transport, store: store)
        let events = client.events
        await expectError(.unauthorized) { _ = try await client.profile() }
        #expect(transport.requests.map { $0.url!.path } == ["/me", "/auth/refresh", "/me"], "one refresh, one retry")
        #expect(try store.load() == nil && client.currentSession == nil, "the session ended")
        await #expect(throws: GatehouseError.notSignedIn) { try await client.profile() }
        #expect(transport.requests.count == 3, "no further requests, no further rotation")
        try await client.signIn(email: "a@example.com", password: "pw")  // a later event, so a missing one cannot hang the test
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .tokenRefreshed)
        #expect(await iterator.next() == .sessionExpired)
    }

    /// The same for your own API through `send`: the second refusal throws instead of rotating again next time.
    @Test func yourAPIRefusingAFreshTokenEndsTheSession() async throws {
        let transport = Self.refusingServer()
        let client = client(transport, store: InMemoryTokenStore(Self.stored))
        await expectError(.unauthorized) { _ = try await client.send(URLRequest(url: base.appendingPathComponent("api/orders"))) }
        #expect(transport.requests(to: "/auth/refresh").count == 1 && transport.requests(to: "/api/orders").count == 2)
        #expect(client.currentSession == nil)
        await #expect(throws: GatehouseError.notSignedIn) { _ = try await client.send(URLRequest(url: base.appendingPathComponent("api/orders"))) }
        #expect(transport.requests.count == 3)
    }
}
