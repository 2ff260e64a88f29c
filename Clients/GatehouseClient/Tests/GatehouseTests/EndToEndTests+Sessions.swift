import Foundation
import Testing

@testable import Gatehouse

/// Issue 15's behaviour against the real server: which 401s refresh, the auth state stream with the real
/// ID token's claims, and several clients on one stored session (part of the end-to-end suite).
extension EndToEndTests {
    @Test func aWrongCurrentPasswordNeitherRefreshesNorEndsTheSession() async throws {
        let server = try GatehouseServerProcess(environment: ["GATEHOUSE_REFRESH_REUSE_GRACE": "0"])
        defer { server.stop() }
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let email = Self.email("cy")
        try await signedUp(server, client, email)
        let session = try await client.signIn(email: email, password: "correct horse 9")
        await expectError(.invalidCredentials) { try await client.changePassword(current: "wrong horse 1", new: "another horse 8") }
        #expect(client.currentSession == session, "no refresh: the refresh token did not rotate")
        let (status, _) = try await server.raw("POST", "/auth/refresh", json: ["refresh_token": session.refreshToken])
        #expect(status == 200, "the refresh token is still the live one (grace 0 would refuse a rotated one)")
    }

    @Test func theStateStreamCarriesTheRealIDTokensClaims() async throws {
        let server = try GatehouseServerProcess()
        defer { server.stop() }
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        var changes = client.authStateChanges.makeAsyncIterator()
        #expect(await changes.next() == AuthStateChange(event: .initialSession, session: nil))
        let email = Self.email("di")
        try await signedUp(server, client, email)
        let session = try await client.signIn(email: email, password: "correct horse 9")
        let signedIn = await changes.next()
        #expect(signedIn?.event == .signedIn && signedIn?.session == session)
        let profile = try await client.profile()
        let user = try #require(client.currentUser)
        #expect(user.sub == profile.sub && user.email == email && user.emailVerified && user.name == "Ann")
        #expect(user.issuer != nil && user.audience != nil)
    }

    @Test func twoClientsOnOneStoreNeverPresentARotatedToken() async throws {
        // Grace 0: presenting a rotated-out refresh token would end the session at once.
        let server = try GatehouseServerProcess(environment: ["GATEHOUSE_REFRESH_REUSE_GRACE": "0"])
        defer { server.stop() }
        let configuration = GatehouseClient.Configuration(baseURL: server.baseURL)
        let store = FileTokenStore(directory: server.dataDirectory.appendingPathComponent("shared"), for: configuration)
        try FileManager.default.createDirectory(at: server.dataDirectory.appendingPathComponent("shared"), withIntermediateDirectories: true)
        let lock = FileRefreshCoordinator(url: server.dataDirectory.appendingPathComponent("shared/refresh.lock"))
        let app = GatehouseClient(configuration: configuration, store: store, refreshCoordinator: lock)
        let widget = GatehouseClient(configuration: configuration, store: store, refreshCoordinator: lock)
        let email = Self.email("ed")
        try await signedUp(server, app, email)
        try await app.signIn(email: email, password: "correct horse 9")
        try await widget.restore()

        // Both refresh at once: one rotates, the other adopts the result under the lock.
        async let fromApp = app.refresh()
        async let fromWidget = widget.refresh()
        let (a, b) = try await (fromApp, fromWidget)
        #expect(a == b, "one rotation served both clients")
        #expect(try await widget.profile().email == email)
        #expect(try await app.profile().email == email)

        // Without the lock, a client that read the store earlier still re-reads it before refreshing.
        let stale = GatehouseClient(configuration: configuration, store: store)
        try await stale.restore()
        try await app.refresh()
        let adopted = try await stale.refresh()
        #expect(adopted == app.currentSession, "adopted from the store, no reuse")
        #expect(try await stale.profile().email == email)
    }
}
