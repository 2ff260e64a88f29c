import Foundation
import Testing

@testable import Gatehouse

#if canImport(Observation)
import Observation

/// The model's passkey actions with the system sheet replaced by closures: a closed sheet is not an error, a sign-in
/// loads the profile, adding and removing reload the list, signing out empties it.
@Suite("AuthModel: passkeys", .timeLimit(.minutes(1)))
@MainActor
struct AuthModelPasskeyTests {
    final class Server: @unchecked Sendable {
        let lock = NSLock()
        var stored: [[String: Any]] = []
        var list: [[String: Any]] { lock.withLock { stored } }
        func set(_ value: [[String: Any]]) { lock.withLock { stored = value } }
    }

    func model() -> (AuthModel, StubTransport, Server) {
        let server = Server()
        let transport = StubTransport { request in
            switch (request.httpMethod ?? "GET", request.url!.path) {
            case ("POST", "/auth/passkey/signin"): return (200, [:], StubTransport.tokens("pk"))
            case ("POST", "/me/passkeys"):
                server.set([PasskeyTests.passkeyJSON])
                return (201, [:], StubTransport.json(PasskeyTests.passkeyJSON))
            case ("GET", "/me/passkeys"): return (200, [:], StubTransport.json(["passkeys": server.list]))
            case ("DELETE", let path) where path.hasPrefix("/me/passkeys/"):
                server.set([])
                return (204, [:], Data())
            case ("GET", "/me"): return (200, [:], StubTransport.json(AuthModelTests.profileJSON))
            case ("POST", "/auth/signout"): return (204, [:], Data())
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        return (AuthModel(client: GatehouseClient(configuration: .init(baseURL: base), transport: transport)), transport, server)
    }

    static let assertion = PasskeyAssertion(
        credentialID: PasskeyTests.credential,
        clientDataJSON: Data("{}".utf8),
        authenticatorData: Data([1]),
        signature: Data([2])
    )
    static let registration = PasskeyRegistration(
        credentialID: PasskeyTests.credential,
        clientDataJSON: Data("{}".utf8),
        attestationObject: Data([1])
    )

    @Test func signInWithAPasskeyAndAClosedSheet() async {
        let (model, transport, _) = model()
        await model.signInWithPasskey { throw PasskeyAuthorizationError.cancelled }
        #expect(!model.isAuthenticated && model.errorMessage == nil && transport.requests.isEmpty, "closing the sheet shows nothing")
        await model.signInWithPasskey { throw PasskeyAuthorizationError.failed("not associated with domain") }
        #expect(model.errorMessage == "The passkey couldn't be used. Please try again.")
        await model.signInWithPasskey { try await model.client.signInWithPasskey(Self.assertion) }
        #expect(model.isAuthenticated && model.profile?.sub == "u1" && model.errorMessage == nil)
        #expect(model.client.currentSession?.signInMethod == .passkey)
    }

    @Test func addListAndRemovePasskeys() async throws {
        let (model, _, _) = model()
        await model.signInWithPasskey { try await model.client.signInWithPasskey(Self.assertion) }
        let cancelled = await model.addPasskey { throw PasskeyAuthorizationError.cancelled }
        #expect(cancelled == nil && model.errorMessage == nil)
        let added = try #require(await model.addPasskey { try await model.client.registerPasskey(Self.registration, name: "iPhone") })
        #expect(added.name == "iPhone" && model.passkeys == [added], "the list is reloaded")
        await model.removePasskey(added)
        #expect(model.passkeys.isEmpty && model.errorMessage == nil)
        _ = await model.addPasskey { try await model.client.registerPasskey(Self.registration) }
        await model.loadPasskeys()
        #expect(model.passkeys.count == 1)
        await model.signOut()
        #expect(model.passkeys.isEmpty && !model.isAuthenticated, "nothing of the account stays after sign-out")
    }

    @Test func aServerWithoutPasskeysHidesThemQuietly() async {
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/signin": return (200, [:], StubTransport.tokens("1"))
            case "/me": return (200, [:], StubTransport.json(AuthModelTests.profileJSON))
            default: return (404, [:], StubTransport.error("not_found", "No such resource."))
            }
        }
        let model = AuthModel(client: GatehouseClient(configuration: .init(baseURL: base), transport: transport))
        await model.signIn(email: "a@example.com", password: "pw")
        #expect(model.passkeysAvailable)
        await model.loadPasskeys()
        #expect(!model.passkeysAvailable && model.passkeys.isEmpty && model.errorMessage == nil && model.isAuthenticated)
    }
}
#endif
