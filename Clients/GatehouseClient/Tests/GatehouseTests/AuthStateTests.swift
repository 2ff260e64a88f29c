import Foundation
import Testing

@testable import Gatehouse

/// The auth state as an app reads it: the stream's first element, the synchronous session and user
/// (issue 15, gap 8).
@Suite("Auth state: initial state first, then every change with its session")
struct AuthStateTests {
    @Test func theStreamStartsWithTheRestoredSessionThenEveryChange() async throws {
        let token = fakeIDToken(["sub": "u1", "email": "a@example.com", "email_verified": true, "aud": "app"])
        let stored = Session(idToken: token, accessToken: "a1", refreshToken: "r1", expiresAt: .distantFuture)
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/refresh": return (200, [:], StubTransport.tokens("2"))
            default: return (204, [:], Data())
            }
        }
        let client = GatehouseClient(configuration: .init(baseURL: base), store: InMemoryTokenStore(stored), transport: transport)
        #expect(client.currentSession == nil && !client.isRestored, "nothing is known before the store is read")
        var changes = client.authStateChanges.makeAsyncIterator()
        let initial = await changes.next()
        #expect(initial == AuthStateChange(event: .initialSession, session: stored))
        #expect(initial?.user?.sub == "u1" && client.currentUser?.email == "a@example.com" && client.currentUser?.audience == "app")
        #expect(client.currentSession == stored && client.isRestored)
        let refreshed = try await client.refresh()
        #expect(await changes.next() == AuthStateChange(event: .tokenRefreshed, session: refreshed))
        try await client.signOut()
        #expect(await changes.next() == AuthStateChange(event: .signedOut, session: nil))
        #expect(client.currentSession == nil && client.currentUser == nil)

        // A stream opened now starts signed out.
        var later = client.authStateChanges.makeAsyncIterator()
        #expect(await later.next() == AuthStateChange(event: .initialSession, session: nil))
    }

    @Test func anUnreadableStoreIsAnUnknownStateNotASignOut() async throws {
        let store = FlakyStore(SessionSafetyTests.stored)
        store.fail(load: true)
        let client = GatehouseClient(configuration: .init(baseURL: base), store: store, transport: StubTransport { _ in (204, [:], Data()) })
        var changes = client.authStateChanges.makeAsyncIterator()
        let initial = await changes.next()
        #expect(initial?.event == .initialSession && initial?.session == nil && initial?.restoreFailure?.operation == .load)
        await expectError(isStorage) { try await client.restore() }
        #expect(!client.isRestored)
        store.fail()
        #expect(try await client.restore() == SessionSafetyTests.stored)
    }
}
