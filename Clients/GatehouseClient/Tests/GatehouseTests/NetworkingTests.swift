import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Errors, cancellation, the ID token, Retry-After and the logger (issue 15, gaps 10 and 12).
@Suite("Networking: errors, cancellation, ID tokens, Retry-After, logging")
struct NetworkingTests {
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    static let stored = Session(idToken: "id-1", accessToken: "access-1", refreshToken: "refresh-1", expiresAt: .distantFuture)

    func client(_ transport: StubTransport, sleeps: Recorder = Recorder(), log: Recorder = Recorder()) -> GatehouseClient {
        GatehouseClient(
            configuration: .init(baseURL: base, logger: { log.add("\($0.level): \($0.message)") }),
            store: InMemoryTokenStore(Self.stored),
            transport: transport,
            sleep: { sleeps.add("\($0)") }
        )
    }

    @Test func transportFailuresKeepTheirURLErrorCodeAndReadWell() async {
        for code in [URLError.Code.notConnectedToInternet, .timedOut] {
            let client = client(StubTransport { _ in throw URLError(code) })
            let offline: (GatehouseError) -> Bool = { $0.urlErrorCode == code && $0.isConnectivityProblem }
            await expectError(offline) { _ = try await client.profile() }
            #expect(client.currentSession == Self.stored, "the session is kept")
        }
        let refused = GatehouseError.server(ServerError(code: .invalidCredentials, message: "x", status: 401, requestID: nil, retryAfter: nil))
        #expect(refused.localizedDescription == "Incorrect email or password.")
        #expect(GatehouseError.transport(URLError(.notConnectedToInternet)).localizedDescription.contains("Can't reach"))
        #expect(GatehouseError.storage(StorageFailure(.load, FlakyStore.Refused())).errorDescription?.contains("Unlock") == true)
    }

    @Test func aCancelledTaskStopsWithCancelledAndKeepsTheSession() async throws {
        let gate = Gate()
        let (arrived, arrivedContinuation) = AsyncStream<Void>.makeStream()
        let client = client(
            StubTransport { _ in
                arrivedContinuation.yield()
                await gate.wait()
                return (200, [:], StubTransport.json([:]))
            }
        )
        let call = Task { try await client.send(URLRequest(url: base.appendingPathComponent("api/slow"))) }
        var iterator = arrived.makeAsyncIterator()
        await iterator.next()
        call.cancel()
        gate.release()
        let cancelled: (GatehouseError) -> Bool = { $0.isCancelled }
        await expectError(cancelled) { _ = try await call.value }
        #expect(client.currentSession == Self.stored)
        let before = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(URLRequest(url: base.appendingPathComponent("api/never")))
        }
        await expectError(cancelled) { _ = try await before.value }
    }

    @Test func sendCanAttachTheIDToken() async throws {
        let transport = StubTransport { request in
            if request.url!.path == "/auth/refresh" { return (200, [:], StubTransport.tokens("2")) }
            return request.value(forHTTPHeaderField: "Authorization") == "Bearer id-2" ? (200, [:], Data()) : (401, [:], Data())
        }
        let client = client(transport)
        let (_, response) = try await client.send(URLRequest(url: base.appendingPathComponent("api/items")), token: .id)
        #expect(response.statusCode == 200)
        #expect(transport.requests(to: "/api/items").map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer id-1", "Bearer id-2"])
    }

    @Test func shortRetryAftersAreWaitedOutWithinTheBound() async throws {
        let transport = StubTransport { request in
            let attempt = request.url!.query ?? ""
            switch request.url!.path {
            case "/api/busy": return (503, ["Retry-After": "1"], Data())
            case "/api/long": return (429, ["Retry-After": "30"], Data())
            case "/api/bare": return (503, [:], Data())
            default: return (200, [:], Data(attempt.utf8))
            }
        }
        let sleeps = Recorder()
        let log = Recorder()
        let client = client(transport, sleeps: sleeps, log: log)
        #expect(try await client.send(URLRequest(url: base.appendingPathComponent("api/busy"))).1.statusCode == 503)
        #expect(transport.requests(to: "/api/busy").count == 3 && sleeps.all == ["1.0", "1.0"], "two retries, each after 1 s")
        #expect(try await client.send(URLRequest(url: base.appendingPathComponent("api/long"))).1.statusCode == 429)
        #expect(try await client.send(URLRequest(url: base.appendingPathComponent("api/bare"))).1.statusCode == 503)
        #expect(transport.requests(to: "/api/long").count == 1 && transport.requests(to: "/api/bare").count == 1, "beyond the bound: at once")
        #expect(log.all.contains { $0.contains("GET /api/busy -> 503; retrying in 1.0 s") })
        #expect(!log.all.contains { $0.contains("access-1") || $0.contains("refresh-1") || $0.contains("id-1") }, "no secrets")
    }
}
