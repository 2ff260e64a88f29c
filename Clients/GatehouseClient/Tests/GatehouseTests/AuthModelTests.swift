import Foundation
import Testing

@testable import Gatehouse

#if canImport(Observation)
import Observation

@Suite("AuthModel: the state a sign-in screen shows", .timeLimit(.minutes(1)))
@MainActor
struct AuthModelTests {
    nonisolated static var profileJSON: [String: Any] {
        [
            "sub": "u1", "email": "a@example.com", "email_verified": true, "full_name": "Ann", "identities": [],
            "created_at": "2026-11-23T10:00:00Z", "updated_at": "2026-11-23T10:00:00Z",
        ]
    }

    final class Server: @unchecked Sendable {
        let lock = NSLock()
        var confirmed = false
        func set(_ value: Bool) { lock.withLock { confirmed = value } }
        var isConfirmed: Bool { lock.withLock { confirmed } }
    }

    func model() -> (AuthModel, StubTransport) {
        let server = Server()
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/signup":
                let delivery = ["medium": "EMAIL", "destination": "a***"]
                return (201, [:], StubTransport.json(["user_sub": "u1", "user_confirmed": false, "code_delivery": delivery]))
            case "/auth/confirm":
                if request.jsonBody["code"] as? String != "123456" { return (400, [:], StubTransport.error("code_mismatch")) }
                server.set(true)
                return (200, [:], StubTransport.json(["confirmed": true]))
            case "/auth/signin":
                if request.jsonBody["password"] as? String != "pw" { return (401, [:], StubTransport.error("invalid_credentials")) }
                return server.isConfirmed ? (200, [:], StubTransport.tokens("1")) : (403, [:], StubTransport.error("user_not_confirmed"))
            case "/me" where request.httpMethod == "GET": return (200, [:], StubTransport.json(Self.profileJSON))
            case "/auth/signout": return (204, [:], Data())
            case "/me" where request.httpMethod == "DELETE": return (204, [:], Data())
            case "/auth/refresh": return (401, [:], StubTransport.error("invalid_grant"))
            case "/auth/password/change":
                if request.jsonBody["current_password"] as? String != "pw" { return (401, [:], StubTransport.error("invalid_credentials")) }
                return (200, [:], StubTransport.json(["changed": true]))
            case "/auth/signout/all": return (204, [:], Data())
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        return (AuthModel(client: GatehouseClient(configuration: .init(baseURL: base), transport: transport)), transport)
    }

    @Test func signUpConfirmAndSignIn() async {
        let (model, _) = model()
        await model.signIn(email: "a@example.com", password: "pw")
        #expect(model.needsConfirmation && model.pendingEmail == "a@example.com" && !model.isAuthenticated)
        #expect(model.errorCode == .userNotConfirmed && model.errorMessage?.contains("code") == true)
        await model.signUp(email: "a@example.com", password: "pw")
        #expect(model.needsConfirmation && model.errorMessage == nil)
        await model.confirm(code: "000000", password: "pw")
        #expect(model.errorCode == .codeMismatch && model.needsConfirmation && !model.isAuthenticated)
        await model.confirm(code: "123456", password: "pw")
        #expect(model.isAuthenticated && !model.needsConfirmation && model.profile?.email == "a@example.com" && !model.isLoading)
    }

    @Test func wrongPasswordShowsAMessageAndSignOutClearsState() async throws {
        let (model, _) = model()
        await model.signUp(email: "a@example.com", password: "pw")
        await model.confirm(code: "123456")
        await model.signIn(email: "a@example.com", password: "bad")
        #expect(model.errorMessage == "Incorrect email or password." && !model.isAuthenticated)
        await model.signIn(email: "a@example.com", password: "pw")
        #expect(model.isAuthenticated)
        await model.signOut()
        #expect(!model.isAuthenticated && model.profile == nil, "signed out when the call returns, no event awaited")
    }

    @Test func deletingTheAccountSignsTheModelOutAtOnce() async throws {
        let (model, _) = model()
        await model.signUp(email: "a@example.com", password: "pw")
        await model.confirm(code: "123456", password: "pw")
        #expect(model.isAuthenticated)
        await model.deleteAccount()
        #expect(!model.isAuthenticated && model.profile == nil && model.errorMessage == nil)
    }

    @Test func anExpiredSessionSignsTheModelOut() async throws {
        let (model, _) = model()
        await model.signUp(email: "a@example.com", password: "pw")
        await model.confirm(code: "123456", password: "pw")
        #expect(model.isAuthenticated)
        _ = try? await model.client.refresh()
        await until { model.errorMessage != nil }  // the expiry arrives through the state stream
        #expect(model.phase == .signedOut && model.errorMessage?.contains("session ended") == true)
    }

    @Test func restoringNeverShowsSignedOutWhileTheStoreIsLocked() async throws {
        let token = fakeIDToken(["sub": "u1", "email": "a@example.com", "email_verified": true, "name": "Ann"])
        let store = FlakyStore(Session(idToken: token, accessToken: "a", refreshToken: "r", expiresAt: .distantFuture))
        store.fail(load: true)
        let offline = StubTransport { _ in throw URLError(.notConnectedToInternet) }
        let model = AuthModel(client: GatehouseClient(configuration: .init(baseURL: base), store: store, transport: offline))
        #expect(model.phase == .restoring)
        await model.restore()
        #expect(model.phase == .restoring && model.errorMessage != nil, "a locked Keychain is not a sign-out")
        store.fail()
        await model.restore()
        #expect(model.phase == .signedIn && model.errorMessage == nil, "offline, the stored session still signs in")
        #expect(model.user?.email == "a@example.com" && model.user?.name == "Ann" && model.profile == nil)
    }

    @Test func changePasswordSignOutEverywhereAndLeavingTheCodeScreen() async throws {
        let (model, transport) = model()
        await model.signUp(email: "a@example.com", password: "pw")
        #expect(model.needsConfirmation)
        model.cancelConfirmation()
        #expect(!model.needsConfirmation && model.pendingEmail == nil)
        await model.signUp(email: "a@example.com", password: "pw")
        await model.confirm(code: "123456", password: "pw")
        #expect(await model.changePassword(current: "wrong", new: "new pw 1") == false)
        #expect(model.errorMessage == "Incorrect email or password." && model.isAuthenticated)
        #expect(transport.requests(to: "/auth/refresh").isEmpty && transport.requests(to: "/auth/password/change").count == 1)
        #expect(await model.changePassword(current: "pw", new: "new pw 1") && model.errorMessage == nil)
        await model.signOutEverywhere()
        #expect(model.phase == .signedOut && model.profile == nil)
        model.report(AppleWebSignInError.failed("invalid_state"))
        #expect(model.errorMessage?.contains("Apple") == true)
    }

    // Review of issue 15, finding 7: a failed action still leaves the model in the client's state when it returns.
    @Test func failedActionsLeaveTheModelInTheClientsStateWhenTheyReturn() async {
        let store = FlakyStore()
        store.fail(save: true)
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/signin": return (200, [:], StubTransport.tokens("1"))
            case "/auth/refresh": return (401, [:], StubTransport.error("invalid_grant"))
            default: return (401, [:], StubTransport.error("unauthorized"))
            }
        }
        let model = AuthModel(client: GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport))
        await model.signIn(email: "a@example.com", password: "pw")
        #expect(model.isAuthenticated && model.errorMessage != nil, "the store refused the write, the client is signed in")
        store.fail()
        await model.loadProfile()
        #expect(model.phase == .signedOut && model.errorMessage?.contains("session ended") == true, "invalid_grant ended it")
    }

    /// Waits, without sleeping, until `condition` holds: it re-checks whenever a property it read changes.
    func until(_ condition: @escaping @MainActor () -> Bool) async {
        while !condition() {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = condition()
                } onChange: {
                    continuation.resume()
                }
            }
        }
    }

    @Test func messagesForCodes() {
        let throttled = GatehouseError.server(ServerError(code: .tooManyRequests, message: "", status: 429, requestID: nil, retryAfter: 12))
        #expect(AuthModel.message(for: throttled) == "Too many attempts. Try again in 12 seconds.")
        #expect(AuthModel.message(for: .transport(URLError(.notConnectedToInternet))).contains("Can't reach"))
    }
}
#endif
