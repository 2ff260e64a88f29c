import Foundation
import Testing

@testable import Gatehouse

/// Several clients (or processes) on one stored session (issue 15, gap 9): refresh tokens rotate and a reused
/// one ends the session, so they must never present a token another one already rotated.
@Suite("Shared store: several clients on one session")
struct SharedStoreTests {
    static let expiring = Session(
        idToken: "id-1",
        accessToken: "access-1",
        refreshToken: "refresh-1",
        expiresAt: Date(timeIntervalSince1970: 1_800_000_010)
    )

    /// A server that rotates like Gatehouse: each refresh token works once; a reused one is refused.
    static func rotatingServer(onRefresh: @escaping @Sendable (String) -> Void = { _ in }) -> StubTransport {
        let used = Used()
        return StubTransport { request in
            guard request.url!.path == "/auth/refresh", let token = request.jsonBody["refresh_token"] as? String else {
                return (204, [:], Data())
            }
            onRefresh(token)
            guard used.first(token), let n = Int(token.dropFirst("refresh-".count)) else {
                return (401, [:], StubTransport.error("invalid_grant"))
            }
            return (200, [:], StubTransport.tokens("\(n + 1)"))
        }
    }

    final class Used: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: Set<String> = []
        func first(_ token: String) -> Bool { lock.withLock { seen.insert(token).inserted } }
    }

    func client(_ transport: StubTransport, _ store: any TokenStore, _ coordinator: (any RefreshCoordinator)? = nil) -> GatehouseClient {
        let clock = ManualClock()
        return GatehouseClient(
            configuration: .init(baseURL: base),
            store: store,
            refreshCoordinator: coordinator,
            transport: transport,
            now: { clock.now }
        )
    }

    @Test func aClientReReadsTheStoreBeforeRefreshing() async throws {
        let store = InMemoryTokenStore(Self.expiring)
        let transport = Self.rotatingServer()
        let app = client(transport, store)
        let widget = client(transport, store)
        try await widget.restore()  // the widget read the session before the app refreshed it
        #expect(try await app.validAccessToken() == "access-2")
        #expect(try await widget.validAccessToken() == "access-2", "adopted from the store, no second refresh")
        #expect(transport.requests(to: "/auth/refresh").count == 1)
        #expect(widget.currentSession == app.currentSession)
    }

    @Test func aSignOutInAnotherClientIsSeenAtTheNextRefresh() async throws {
        let store = InMemoryTokenStore(Self.expiring)
        let transport = Self.rotatingServer()
        let app = client(transport, store)
        let widget = client(transport, store)
        try await widget.restore()
        try await app.signOut()
        await #expect(throws: GatehouseError.notSignedIn) { try await widget.validAccessToken() }
        #expect(transport.requests(to: "/auth/refresh").isEmpty && widget.currentSession == nil)
    }

    @Test func aLostRaceAdoptsTheWinnersSessionInsteadOfEndingIt() async throws {
        let store = InMemoryTokenStore(Self.expiring)
        // While this client's refresh is in flight, another process rotates the token and stores the result.
        let transport = Self.rotatingServer { token in
            if token == "refresh-1" {
                try? store.save(Session(idToken: "id-9", accessToken: "access-9", refreshToken: "refresh-9", expiresAt: .distantFuture))
            }
        }
        let reused = StubTransport { request in
            _ = try await transport.send(request)
            return (401, [:], StubTransport.error("invalid_grant"))  // the other process presented refresh-1 first
        }
        let client = client(reused, store)
        let events = client.events
        #expect(try await client.validAccessToken() == "access-9")
        #expect(try client.currentSession?.refreshToken == "refresh-9" && store.load()?.refreshToken == "refresh-9")
        try await client.signOut()
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .tokenRefreshed, "not .sessionExpired")
    }

    @Test func clientsSharingAFileCoordinatorRefreshOneAtATime() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lockFile = directory.appendingPathComponent("refresh.lock")
        let store = InMemoryTokenStore(Self.expiring)
        let transport = Self.rotatingServer()
        let clients = (0..<4).map { _ in client(transport, store, FileRefreshCoordinator(url: lockFile)) }
        for client in clients { try await client.restore() }  // every one holds refresh-1 in memory
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for client in clients { group.addTask { try await client.validAccessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens == ["access-2"] && transport.requests(to: "/auth/refresh").count == 1)
    }

    @Test func storesAreKeyedByServerAndClient() {
        let staging = GatehouseClient.Configuration(baseURL: URL(string: "https://auth.staging.example.com/")!, clientID: "app")
        let production = GatehouseClient.Configuration(baseURL: URL(string: "https://auth.example.com")!, clientID: "app")
        let other = GatehouseClient.Configuration(baseURL: URL(string: "https://AUTH.example.com/")!, clientID: "web")
        #expect(staging.storeKey == "gatehouse:https://auth.staging.example.com|app")
        #expect(Set([staging.storeKey, production.storeKey, other.storeKey]).count == 3)
        let directory = URL(fileURLWithPath: "/tmp/x")
        #expect(FileTokenStore(directory: directory, for: staging).url != FileTokenStore(directory: directory, for: production).url)
    }
}
