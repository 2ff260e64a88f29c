import Foundation
import Testing

@testable import Gatehouse

/// The platform-independent parts of the Apple web flow and the credential-state check (issue 15, gap 11).
@Suite("Apple: callback parsing, PKCE authorize URL, credential state")
struct AppleFlowTests {
    @Test func callbacksParse() {
        let parse = { AppleCallback.parse(URL(string: $0)!, scheme: "myapp") }
        #expect(parse("myapp://apple-callback?code=H4nd0ff") == .code("H4nd0ff"))
        #expect(parse("MyApp://apple-callback?error=invalid_state") == .error("invalid_state"))
        #expect(parse("myapp://apple-callback?error=access_denied&code=x") == .error("access_denied"), "an error wins")
        #expect(parse("myapp://apple-callback") == nil && parse("myapp://apple-callback?code=") == nil)
        #expect(parse("other://apple-callback?code=x") == nil && parse("myapp://google-callback?code=x") == nil)
        #expect(AppleWebSignInError.failed("access_denied").localizedDescription.contains("cancelled"))
    }

    @Test func theAuthorizeURLCarriesThePKCEChallenge() throws {
        let client = GatehouseClient(configuration: .init(baseURL: base))
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mJ92K1qUdZiXrQQ-vkqgNr5x1hj5m0")
        let url = client.appleAuthorizeURL(pkce: pkce)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(url.path == "/auth/apple/authorize")
        #expect(items.first { $0.name == "code_challenge" }?.value == "lCGhYiCb_K0SqCiyidc9CnJ4tiNtKl4x7a3vwnWGZVM")
        #expect(items.first { $0.name == "code_challenge_method" }?.value == "S256")
    }

    /// A server answering every sign-in (Apple, the Apple hand-off, email and password) and refresh with tokens.
    static func signInServer() -> StubTransport {
        StubTransport { request in
            switch request.url!.path {
            case "/auth/apple", "/auth/handoff", "/auth/signin", "/auth/refresh": (200, [:], StubTransport.tokens("1"))
            default: (204, [:], Data())
            }
        }
    }

    @Test func aRevokedCredentialSignsOutAndAnAuthorizedOneDoesNot() async throws {
        let transport = Self.signInServer()
        let store = InMemoryTokenStore()
        let client = GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport)
        try await client.signInWithApple(identityToken: "apple-jwt", authorizationCode: nil, rawNonce: nil)
        #expect(try await client.apply(.authorized) == false && client.currentSession != nil)
        #expect(try await client.apply(.transferred) == false)
        try await client.refresh()  // the refreshed session is still the Apple sign-in's
        #expect(try await client.apply(.revoked) == true)
        #expect(try store.load() == nil && transport.requests(to: "/auth/signout").count == 1)
        #expect(try await client.apply(.notFound) == false, "already signed out")
        _ = try await client.redeemHandoff(code: "handoff", codeVerifier: PKCE().verifier)  // Apple in a browser
        #expect(try await client.apply(.notFound) == true && client.currentSession == nil)
    }

    /// Apple's answer about an Apple ID says nothing about a session made another way (a user who signed in with
    /// Apple once, then with email and password): only a Sign in with Apple session ends on it.
    @Test func aRevokedCredentialLeavesASessionMadeAnotherWay() async throws {
        let transport = Self.signInServer()
        let store = InMemoryTokenStore()
        let client = GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport)
        try await client.signIn(email: "a@example.com", password: "pw")
        #expect(try await client.apply(.revoked) == false)
        #expect(try await client.apply(.notFound) == false)
        #expect(try client.currentSession != nil && store.load() != nil, "still signed in")
        #expect(transport.requests(to: "/auth/signout").isEmpty)
        // A session stored before the SDK recorded how it was made: not known to be Apple's, so kept.
        let older = GatehouseClient(configuration: .init(baseURL: base), store: InMemoryTokenStore(SessionSafetyTests.stored), transport: transport)
        #expect(try await older.apply(.revoked) == false && older.currentSession != nil)
        #expect(transport.requests(to: "/auth/signout").isEmpty)
    }

    @Test func theSignInMethodSurvivesTheStoreAndOlderSessionsStillDecode() throws {
        let expiry = Date(timeIntervalSince1970: 1_800_000_000)
        let apple = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: expiry, signInMethod: .apple)
        #expect(try FileTokenStore.decoder.decode(Session.self, from: FileTokenStore.encoder.encode(apple)) == apple)
        let older = Data(#"{"idToken":"i","accessToken":"a","refreshToken":"r","expiresAt":1800000000}"#.utf8)
        #expect(try FileTokenStore.decoder.decode(Session.self, from: older).signInMethod == nil)
        let redirect = URL(string: "myapp://callback")!
        #expect(WebUIRequest(clientID: "c", redirectURI: redirect, provider: .apple).signInMethod == .apple)
        #expect(WebUIRequest(clientID: "c", redirectURI: redirect).signInMethod == .hostedUI, "the page offers every method")
    }
}
