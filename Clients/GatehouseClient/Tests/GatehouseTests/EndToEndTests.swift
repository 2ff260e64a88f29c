import Foundation
import Testing

@testable import Gatehouse

/// The SDK against a real Gatehouse server on a loopback port: every method, rotation, racing
/// refreshes, sign-out, and a server that goes away.
@Suite("Client end to end against a real server", .serialized, .enabled(if: GatehouseServerProcess.isAvailable))
struct EndToEndTests {
    static func email(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(6).lowercased())@example.com" }

    func signedUp(_ server: GatehouseServerProcess, _ client: GatehouseClient, _ email: String, password: String = "correct horse 9") async throws {
        let sent = Date()
        let result = try await client.signUp(email: email, password: password, fullName: "Ann")
        #expect(!result.userConfirmed && result.codeDelivery.medium == "EMAIL")
        try await client.confirmSignUp(email: email, code: try await server.latestCode("confirm_signup", for: email, since: sent))
    }

    @Test func everyMethodAgainstTheServer() async throws {
        let server = try GatehouseServerProcess(environment: ["GATEHOUSE_REFRESH_REUSE_GRACE": "0"])
        defer { server.stop() }
        let storeURL = server.dataDirectory.appendingPathComponent("client/session.json")
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL), store: FileTokenStore(url: storeURL))
        let email = Self.email("ann")

        // Confirmation, with a wrong code first and a resend.
        _ = try await client.signUp(email: email, password: "correct horse 9")
        await #expect(throws: GatehouseError.self) { try await client.confirmSignUp(email: email, code: "000000") }
        await expectError(.userNotConfirmed) { try await client.signIn(email: email, password: "correct horse 9") }
        try await Task.sleep(nanoseconds: 1_100_000_000)  // the per-address mail cool-down (1 s here)
        let resent = Date()
        try await client.resendCode(email: email)
        try await client.confirmSignUp(email: email, code: try await server.latestCode("confirm_signup", for: email, since: resent))
        await expectError(.invalidCredentials) { try await client.signIn(email: email, password: "wrong password 1") }

        let session = try await client.signIn(email: email, password: "correct horse 9")
        #expect(try FileTokenStore(url: storeURL).load() == session, "the session is persisted")
        var profile = try await client.profile()
        #expect(profile.email == email && profile.emailVerified && profile.identities.map(\.provider) == ["password"])
        profile = try await client.updateProfile(fullName: "Ann Example")
        #expect(profile.fullName == "Ann Example")

        // Rotation: the old refresh token is refused once rotated (grace 0 here).
        let rotated = try await client.refresh()
        #expect(rotated.refreshToken != session.refreshToken)
        let (status, body) = try await server.raw("POST", "/auth/refresh", json: ["refresh_token": session.refreshToken])
        #expect(status == 401 && (body["error"] as? [String: Any])?["code"] as? String == "invalid_grant")
        // Reuse detection ended that session: the client learns it on its next refresh.
        let events = client.events
        await #expect(throws: GatehouseError.self) { try await client.refresh() }
        let stillSignedIn = await client.isSignedIn
        #expect(!stillSignedIn)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .sessionExpired)

        // Racing refreshes share one request; the result works.
        try await client.signIn(email: email, password: "correct horse 9")
        let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
            for _ in 0..<12 { group.addTask { try await client.refresh() } }
            return try await group.reduce(into: [Session]()) { $0.append($1) }
        }
        #expect(Set(sessions.map(\.refreshToken)).count == 1, "one refresh served every caller")
        #expect(try await client.profile().sub == profile.sub)

        // Sign out: the old access token stops working at once.
        let before = try #require(client.currentSession)
        try await client.signOut()
        #expect(try await server.raw("GET", "/me", bearer: before.accessToken).0 == 401)
        await #expect(throws: GatehouseError.notSignedIn) { try await client.profile() }

        // Forgot and reset, then change the password, sign out everywhere, delete.
        try await Task.sleep(nanoseconds: 1_100_000_000)
        let asked = Date()
        try await client.forgotPassword(email: email)
        let resetCode = try await server.latestCode("reset_password", for: email, since: asked)
        try await client.resetPassword(email: email, code: resetCode, newPassword: "battery staple 7")
        try await client.signIn(email: email, password: "battery staple 7")
        try await client.changePassword(current: "battery staple 7", new: "another horse 8")
        let other = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        try await other.signIn(email: email, password: "another horse 8")
        try await client.signOutEverywhere()
        await #expect(throws: GatehouseError.self) { try await other.profile() }
        try await client.signIn(email: email, password: "another horse 8")
        try await client.deleteAccount()
        #expect(try FileTokenStore(url: storeURL).load() == nil)
        await expectError(.invalidCredentials) { try await client.signIn(email: email, password: "another horse 8") }
    }

    @Test func anUnreachableServerKeepsTheSession() async throws {
        let server = try GatehouseServerProcess()
        let store = InMemoryTokenStore()
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL), store: store)
        let email = Self.email("bo")
        try await signedUp(server, client, email)
        try await client.signIn(email: email, password: "correct horse 9")
        server.stop()
        await expectError(isTransport) { _ = try await client.profile() }
        await expectError(isTransport) { _ = try await client.refresh() }
        let kept = client.currentSession
        #expect(try store.load() != nil && kept != nil, "still signed in")
    }

    @Test func socialEndpointsAnswerWithTheContractsErrors() async throws {
        // No provider configured here: the server says so in the contract's terms.
        let server = try GatehouseServerProcess()
        defer { server.stop() }
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        await expectError(.providerDisabled) { try await client.signInWithGoogle(idToken: "x.y.z", rawNonce: Nonce().raw) }
        await expectError(.providerDisabled) { try await client.signInWithApple(identityToken: "x.y.z", authorizationCode: nil, rawNonce: nil) }
        let refusedHandoff: (GatehouseError) -> Bool = { $0.code == .invalidGrant || $0.code == .invalidRequest }
        await expectError(refusedHandoff) {
            try await client.redeemHandoff(code: "nope", codeVerifier: PKCE().verifier)
        }
    }
}
