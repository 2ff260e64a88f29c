import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Client: requests, errors and the session (stub transport)")
struct ClientTests {
    func client(_ transport: StubTransport, store: any TokenStore = InMemoryTokenStore(), clock: ManualClock = ManualClock()) -> GatehouseClient {
        GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport, now: { clock.now })
    }

    @Test func requestsFollowTheContract() async throws {
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/signup":
                let delivery = ["medium": "EMAIL", "destination": "a***@e***.com"]
                return (201, [:], StubTransport.json(["user_sub": "u1", "user_confirmed": false, "code_delivery": delivery]))
            case "/auth/apple", "/auth/google": return (200, [:], StubTransport.tokens("social", isNewUser: true))
            case "/auth/resend-code", "/auth/password/forgot":
                return (200, [:], StubTransport.json(["code_delivery": ["medium": "EMAIL", "destination": "a***@e***.com"]]))
            default: return (200, [:], StubTransport.json([:]))
            }
        }
        let client = client(transport)
        let result = try await client.signUp(email: "a@example.com", password: "pw", fullName: "Ann")
        #expect(result == SignUpResult(userSub: "u1", userConfirmed: false, codeDelivery: .init(medium: "EMAIL", destination: "a***@e***.com")))
        let signUp = try #require(transport.requests(to: "/auth/signup").first)
        #expect(signUp.httpMethod == "POST" && signUp.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(signUp.jsonBody as? [String: String] == ["email": "a@example.com", "password": "pw", "full_name": "Ann"])
        try await client.confirmSignUp(email: "a@example.com", code: "123456")
        #expect(transport.requests(to: "/auth/confirm").first?.jsonBody as? [String: String] == ["email": "a@example.com", "code": "123456"])
        #expect(try await client.resendCode(email: "a@example.com").destination == "a***@e***.com")
        try await client.forgotPassword(email: "a@example.com")
        try await client.resetPassword(email: "a@example.com", code: "1", newPassword: "new")
        #expect(
            transport.requests(to: "/auth/password/reset").first?.jsonBody as? [String: String] == [
                "email": "a@example.com", "code": "1", "new_password": "new",
            ]
        )

        let nonce = Nonce()
        let apple = try await client.signInWithApple(
            identityToken: "apple-jwt",
            authorizationCode: "c0de",
            rawNonce: nonce.raw,
            email: nil,
            fullName: "Ann A"
        )
        #expect(apple.isNewUser == true && apple.session.accessToken == "access-social")
        #expect(
            transport.requests(to: "/auth/apple").first?.jsonBody as? [String: String] == [
                "identity_token": "apple-jwt", "authorization_code": "c0de", "nonce": nonce.raw, "full_name": "Ann A",
            ]
        )
        _ = try await client.signInWithGoogle(idToken: "google-jwt", rawNonce: nil)
        #expect(transport.requests(to: "/auth/google").first?.jsonBody as? [String: String] == ["id_token": "google-jwt"])
        try await client.changePassword(current: "old", new: "new")
        let change = try #require(transport.requests(to: "/auth/password/change").first)
        #expect(change.value(forHTTPHeaderField: "Authorization") == "Bearer access-social")
        #expect(change.jsonBody as? [String: String] == ["current_password": "old", "new_password": "new"])
        let url = client.appleAuthorizeURL(pkce: PKCE(verifier: "v"), nonce: Nonce(raw: "n"))
        #expect(
            url.absoluteString.hasPrefix("https://auth.example.com/auth/apple/authorize?code_challenge=")
                && url.absoluteString.contains("code_challenge_method=S256&nonce=n")
        )
    }

    @Test func errorsCarryTheContractsCodeAndHeaders() async throws {
        let transport = StubTransport { request in
            if request.url!.path == "/auth/signin" {
                return (401, ["X-Request-Id": "req-1"], StubTransport.error("invalid_credentials", "Incorrect email or password."))
            }
            if request.url!.path == "/auth/confirm" { return (429, ["Retry-After": "30"], StubTransport.error("too_many_requests")) }
            if request.url!.path == "/auth/resend-code" { return (502, [:], Data("<html>bad gateway</html>".utf8)) }
            return (400, [:], StubTransport.error("brand_new_code"))
        }
        let client = client(transport)
        let refused = ServerError(
            code: .invalidCredentials,
            message: "Incorrect email or password.",
            status: 401,
            requestID: "req-1",
            retryAfter: nil
        )
        await #expect(throws: GatehouseError.server(refused)) {
            try await client.signIn(email: "a@example.com", password: "x")
        }
        let throttledFor30Seconds: (GatehouseError) -> Bool = { error in
            guard case .server(let server) = error else { return false }
            return server.code == .tooManyRequests && server.retryAfter == 30
        }
        await expectError(throttledFor30Seconds) { try await client.confirmSignUp(email: "a", code: "1") }
        await expectError(.other("http_502")) { try await client.resendCode(email: "a") }
        await expectError(.other("brand_new_code")) { try await client.resetPassword(email: "a", code: "1", newPassword: "p") }
        #expect(ErrorCode.other("brand_new_code").rawValue == "brand_new_code")
        #expect(ErrorCode(rawValue: "invalid_grant") == .invalidGrant && ErrorCode.invalidGrant.rawValue == "invalid_grant")
        await #expect(throws: GatehouseError.notSignedIn) { try await client.profile() }
    }

    @Test func concurrentCallersShareOneRefresh() async throws {
        let clock = ManualClock()
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/signin": return (200, [:], StubTransport.tokens("1", expiresIn: 3600))
            case "/auth/refresh":
                try await Task.sleep(nanoseconds: 50_000_000)
                return (200, [:], StubTransport.tokens("2"))
            default:
                return request.value(forHTTPHeaderField: "Authorization") == "Bearer access-2"
                    ? (200, [:], Data("{}".utf8)) : (401, [:], StubTransport.error("unauthorized"))
            }
        }
        let client = client(transport, clock: clock)
        let events = client.events
        try await client.signIn(email: "a@example.com", password: "pw")
        clock.advance(3590)  // inside the refresh leeway
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let (_, response) = try await client.send(URLRequest(url: base.appendingPathComponent("api/things")))
                    return response.statusCode
                }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(transport.requests(to: "/auth/refresh").count == 1)
        #expect(transport.requests(to: "/auth/refresh").first?.jsonBody as? [String: String] == ["refresh_token": "refresh-1"])
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedIn)
        #expect(await iterator.next() == .tokenRefreshed)
    }

    @Test func a401IsRetriedOnceAfterARefresh() async throws {
        let store = InMemoryTokenStore(
            Session(idToken: "id-1", accessToken: "access-1", refreshToken: "refresh-1", expiresAt: Date(timeIntervalSince1970: 1_800_003_600))
        )
        let transport = StubTransport { request in
            if request.url!.path == "/auth/refresh" { return (200, [:], StubTransport.tokens("2")) }
            // The server ended the first token's session early (say, a password change elsewhere).
            return request.value(forHTTPHeaderField: "Authorization") == "Bearer access-2" ? (200, [:], Data("ok".utf8)) : (401, [:], Data())
        }
        let client = client(transport, store: store)
        let (data, response) = try await client.send(URLRequest(url: base.appendingPathComponent("api/me")))
        #expect(response.statusCode == 200 && data == Data("ok".utf8))
        #expect(transport.requests(to: "/api/me").count == 2 && transport.requests(to: "/auth/refresh").count == 1)
        #expect(try store.load()?.accessToken == "access-2", "the refreshed session is persisted")
    }

    @Test func aNetworkFailureKeepsTheSessionButInvalidGrantEndsIt() async throws {
        let stored = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 1_800_000_010))
        let store = InMemoryTokenStore(stored)
        let offline = StubTransport { _ in throw URLError(.notConnectedToInternet) }
        let client1 = client(offline, store: store)
        await expectError(isTransport) { try await client1.refresh() }
        let stillSignedIn = await client1.isSignedIn
        #expect(try store.load() == stored && stillSignedIn)

        let refused = StubTransport { _ in (401, [:], StubTransport.error("invalid_grant")) }
        let client2 = client(refused, store: store)
        let events = client2.events
        await #expect(throws: GatehouseError.self) { try await client2.validAccessToken() }
        let signedIn = await client2.isSignedIn
        #expect(try store.load() == nil && !signedIn)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .sessionExpired)
    }

    @Test func signOutEndsTheSessionLocallyEvenOffline() async throws {
        let store = InMemoryTokenStore(Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture))
        let client = client(StubTransport { _ in throw URLError(.timedOut) }, store: store)
        let events = client.events
        try await client.signOut()
        #expect(try store.load() == nil)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut)
    }

    @Test func deletionAndProfileCalls() async throws {
        let transport = StubTransport { request in
            switch (request.httpMethod, request.url!.path) {
            case ("GET", "/me"), ("PATCH", "/me"):
                let name: Any = request.httpMethod == "PATCH" ? (request.jsonBody["full_name"] ?? NSNull()) : "Ann"
                return (
                    200, [:],
                    StubTransport.json([
                        "sub": "u1", "email": "a@example.com", "email_verified": true, "full_name": name,
                        "identities": [["provider": "password", "linked_at": "2026-11-23T10:00:00Z"]],
                        "created_at": "2026-11-23T10:00:00Z", "updated_at": "2026-11-23T10:00:00Z",
                    ])
                )
            case ("DELETE", "/me"): return (204, [:], Data())
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        let store = InMemoryTokenStore(Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture))
        let client = client(transport, store: store)
        let events = client.events
        let profile = try await client.profile()
        #expect(profile.fullName == "Ann" && profile.identities.first?.provider == "password" && profile.emailVerified)
        #expect(try await client.updateProfile(fullName: nil).fullName == nil)
        #expect(transport.requests(to: "/me").last?.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"full_name":null}"#)
        try await client.deleteAccount()
        #expect(try store.load() == nil)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .userDeleted)
    }
}
