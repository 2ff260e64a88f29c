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

    @Test func aRevokedCredentialSignsOutAndAnAuthorizedOneDoesNot() async throws {
        let transport = StubTransport { _ in (204, [:], Data()) }
        let store = InMemoryTokenStore(SessionSafetyTests.stored)
        let client = GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport)
        try await client.restore()
        #expect(try await client.apply(.authorized) == false && client.currentSession != nil)
        #expect(try await client.apply(.transferred) == false)
        #expect(try await client.apply(.revoked) == true)
        #expect(try store.load() == nil && transport.requests(to: "/auth/signout").count == 1)
        #expect(try await client.apply(.notFound) == false, "already signed out")
    }
}
