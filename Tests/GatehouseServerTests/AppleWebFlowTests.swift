import Crypto
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// The web/Android flow over real HTTP: authorize → Apple's form_post to our callback → hand-off.
@Suite("Social: Apple web and Android hand-off", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AppleWebFlowTests {
    struct PKCE {
        let verifier = Base64URL.encode(SystemRandomSource().bytes(32))
        var challenge: String { Digests.sha256Base64URL(verifier) }
    }

    /// GET /auth/apple/authorize, what it sent to Apple, and the cookie it set (as a `Cookie` header
    /// value, `name=value`, the way the browser sends it back).
    static func authorize(
        _ client: any TestClientProtocol,
        _ pkce: PKCE,
        nonce: String? = "app-nonce"
    ) async throws -> (reply: Reply, query: [String: String], cookie: String?) {
        var path = "/auth/apple/authorize?code_challenge=\(pkce.challenge)&code_challenge_method=S256"
        if let nonce { path += "&nonce=\(nonce)" }
        let reply = try await client.send(.get, path)
        let location = URLComponents(string: reply.headers[.location] ?? "")
        let query = Dictionary((location?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        let cookie = reply.headers[values: .setCookie].first.flatMap { $0.split(separator: ";").first.map(String.init) }
        return (reply, query, cookie)
    }

    /// Apple's form post to the callback, from a browser holding `cookie`.
    static func callback(_ client: any TestClientProtocol, _ fields: [String: String], cookie: String? = nil) async throws -> Reply {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&")
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        return try await client.send(.post, "/auth/apple/callback", raw: body, contentType: "application/x-www-form-urlencoded", headers: headers)
    }

    /// The app URL the callback page sends the browser to.
    static func target(_ page: Reply) -> URLComponents? {
        guard let range = page.bodyText.range(of: #"href=""#), let end = page.bodyText[range.upperBound...].firstIndex(of: "\"") else { return nil }
        let escaped = String(page.bodyText[range.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&")
        return URLComponents(string: escaped)
    }

    static func value(_ url: URLComponents?, _ name: String) -> String? { url?.queryItems?.first { $0.name == name }?.value }

    @Test func authorizeCallbackHandoff() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.live { client in
                let pkce = PKCE()
                let (redirect, query, cookie) = try await Self.authorize(client, pkce, nonce: "app-nonce")
                #expect(redirect.status == .found)
                #expect(redirect.headers[.location]?.hasPrefix(issuer.appleAPIURL + "/auth/authorize?") == true)
                #expect(
                    query["response_mode"] == "form_post" && query["response_type"] == "code id_token" && query["client_id"] == Clients.appleServices
                )
                #expect(query["redirect_uri"] == "http://gatehouse.test/auth/apple/callback" && query["scope"] == "name email")
                #expect(query["nonce"] == Digests.sha256Hex("app-nonce"))
                let state = try #require(query["state"])
                #expect(state.count >= 43)

                // Apple posts back (the token carries the hashed nonce Apple was given).
                let idToken = issuer.token(
                    .apple,
                    claims: issuer.standardClaims(.apple, audience: Clients.appleServices, subject: "a-web", email: "web@icloud.com"),
                    changing: ["nonce": .string(query["nonce"]!)]
                )
                let page = try await Self.callback(
                    client,
                    [
                        "state": state, "code": "web-code", "id_token": idToken,
                        "user": #"{"name":{"firstName":"Wendy","lastName":"Web"},"email":"web@icloud.com"}"#,
                    ],
                    cookie: cookie
                )
                #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
                let csp = try #require(page.headers[.contentSecurityPolicy])
                #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'sha256-") && !csp.contains("unsafe-inline"))
                #expect(page.headers[.cacheControl] == "no-store")
                let target = try #require(Self.target(page))
                #expect(target.scheme == "awscognito" && target.host == "apple-callback")
                let code = try #require(Self.value(target, "code"))
                #expect(Self.value(target, "id_token") == nil, "no token in the URL")
                // The web code was exchanged with the services id and our redirect URI.
                #expect(issuer.recorded.tokenRequests.last?["client_id"] == Clients.appleServices)
                #expect(issuer.recorded.tokenRequests.last?["redirect_uri"] == "http://gatehouse.test/auth/apple/callback")

                let tokens = try await client.send(.post, "/auth/handoff", json: ["code": .string(code), "code_verifier": .string(pkce.verifier)])
                #expect(tokens.status == .ok && tokens["is_new_user"] == .bool(true) && tokens.headers[.cacheControl] == "no-store")
                let me = try await client.send(.get, "/me", bearer: tokens.string("access_token"))
                #expect(me.string("full_name") == "Wendy Web" && me.string("email") == "web@icloud.com")
                let appleEntry = me["identities"]?.arrayValue?.compactMap(\.objectValue).first { $0["provider"] == "apple" }
                #expect(appleEntry?["is_private_email"] == false, "the web flow writes Apple's relay flag: \(me.bodyText)")
                #expect(try CompactJWS(parsing: tokens.string("id_token")).claims["nonce"] == "app-nonce")

                let again = try await client.send(.post, "/auth/handoff", json: ["code": .string(code), "code_verifier": .string(pkce.verifier)])
                #expect(again.status == .unauthorized && again.errorCode == "invalid_grant", "single use")
                // The state was single use too.
                let replay = try await Self.callback(client, ["state": state, "code": "web-code", "id_token": idToken], cookie: cookie)
                #expect(Self.value(Self.target(replay), "error") == "invalid_state")
            }
        }
    }

    @Test func wrongVerifierBurnsTheCodeAndStaleCodesExpire() async throws {
        let clock = TestClock(Date())
        try await FakeIssuer.run(clock: clock) { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, clock: clock)
            try await app.live { client in
                func handoff() async throws -> (String, PKCE) {
                    let pkce = PKCE()
                    let (_, query, cookie) = try await Self.authorize(client, pkce)
                    let idToken = issuer.token(
                        .apple,
                        claims: issuer.standardClaims(.apple, audience: Clients.appleServices, subject: "a-w2", email: nil),
                        changing: ["nonce": .string(query["nonce"]!)]
                    )
                    let page = try await Self.callback(client, ["state": query["state"]!, "id_token": idToken], cookie: cookie)
                    return (try #require(Self.value(Self.target(page), "code")), pkce)
                }
                let (code, pkce) = try await handoff()
                let wrong = try await client.send(.post, "/auth/handoff", json: ["code": .string(code), "code_verifier": .string(PKCE().verifier)])
                #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_grant")
                let right = try await client.send(.post, "/auth/handoff", json: ["code": .string(code), "code_verifier": .string(pkce.verifier)])
                #expect(right.status == .unauthorized, "a wrong verifier spends the code")
                let (late, latePKCE) = try await handoff()
                clock.advance(by: 61)
                #expect(
                    try await client.send(.post, "/auth/handoff", json: ["code": .string(late), "code_verifier": .string(latePKCE.verifier)]).status
                        == .unauthorized
                )
                #expect(
                    try await client.send(.post, "/auth/handoff", json: ["code": "made-up", "code_verifier": .string(latePKCE.verifier)]).status
                        == .unauthorized
                )
            }
        }
    }

    @Test func forgedMissingAndExpiredStatesAreRefused() async throws {
        let clock = TestClock(Date())
        try await FakeIssuer.run(clock: clock) { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, clock: clock)
            try await app.live { client in
                let idToken = issuer.token(.apple, audience: Clients.appleServices, subject: "a-s", email: nil)
                for fields in [["id_token": idToken], ["state": "forged-state", "id_token": idToken], ["state": "", "id_token": idToken]] {
                    let page = try await Self.callback(client, fields)
                    #expect(Self.value(Self.target(page), "error") == "invalid_state", "\(fields.keys.sorted())")
                    #expect(Self.value(Self.target(page), "code") == nil)
                }
                let (_, query, cookie) = try await Self.authorize(client, PKCE())
                clock.advance(by: 601)
                let expired = try await Self.callback(client, ["state": query["state"]!, "id_token": idToken], cookie: cookie)
                #expect(Self.value(Self.target(expired), "error") == "invalid_state")
                // A token whose nonce is not the one bound to the state.
                let (_, fresh, freshCookie) = try await Self.authorize(client, PKCE())
                let wrongNonce = issuer.token(.apple, audience: Clients.appleServices, subject: "a-s", email: nil, nonce: "someone else's")
                let page = try await Self.callback(client, ["state": fresh["state"]!, "id_token": wrongNonce], cookie: freshCookie)
                #expect(Self.value(Self.target(page), "error") == "invalid_token")
                // Apple's own errors (the user cancelled) come back as they are; garbage is generic.
                let (_, cancelled, cancelledCookie) = try await Self.authorize(client, PKCE())
                let cancel = try await Self.callback(
                    client,
                    ["state": cancelled["state"]!, "error": "user_cancelled_authorize"],
                    cookie: cancelledCookie
                )
                #expect(Self.value(Self.target(cancel), "error") == "user_cancelled_authorize")
                #expect(Self.value(Self.target(try await Self.callback(client, ["error": "<b>x</b>"])), "error") == "apple_error")
            }
        }
    }

    @Test func hostileFormValuesNeverExecuteOrRedirectElsewhere() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) { $0.appleCallbackMode = .forward }
            try await app.live { client in
                let payloads = [
                    #""><script>alert(1)</script>"#, "javascript:alert(1)", #"';alert(1);//"#, "https://evil.example/",
                    "\u{2028}</script><img src=x onerror=alert(1)>",
                    "%0d%0aLocation: https://evil.example", "{{7*7}}",
                ]
                for payload in payloads {
                    let page = try await Self.callback(
                        client,
                        [
                            "id_token": payload, "code": payload, "state": "",
                            "user":
                                #"{"name":{"firstName":"\#(payload.replacingOccurrences(of: "\"", with: "\\\""))","lastName":"x"},"email":"\#(payload)"}"#,
                        ]
                    )
                    #expect(page.status == .ok)
                    #expect(!page.bodyText.contains("<script>alert"), "payload reached the page raw")
                    #expect(!page.bodyText.contains("<img"), "payload reached the page raw")
                    #expect(page.bodyText.components(separatedBy: "href=").count == 2)
                    #expect(page.bodyText.contains(#"href="awscognito://apple-callback?"#), "the only link is the app's")
                    // Exactly one script, the constant one; the only link goes to the app's scheme.
                    #expect(page.bodyText.components(separatedBy: "<script").count == 2)
                    let target = try #require(Self.target(page))
                    #expect(target.scheme == "awscognito" && target.host == "apple-callback")
                    #expect(page.headers[.location] == nil)
                    // In forward mode the values travel percent-encoded, as data.
                    if let forwarded = Self.value(target, "id_token") { #expect(forwarded == payload) }
                }
            }
        }
    }

    @Test func forwardModeGivesTheSeedsTheirParameters() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) { c in
                c.appleCallbackMode = .forward
                c.appURLScheme = "myapp"
            }
            try await app.live { client in
                let idToken = issuer.token(.apple, audience: Clients.appleServices, subject: "a-fwd", email: "fwd@icloud.com")
                let page = try await Self.callback(
                    client,
                    ["id_token": idToken, "code": "c-fwd", "user": #"{"name":{"firstName":"Fay","lastName":"Ward"},"email":"fwd@icloud.com"}"#]
                )
                let target = try #require(Self.target(page))
                #expect(target.scheme == "myapp" && target.host == "apple-callback")
                #expect(Self.value(target, "id_token") == idToken && Self.value(target, "code") == "c-fwd")
                #expect(Self.value(target, "email") == "fwd@icloud.com" && Self.value(target, "name") == "Fay Ward")
                // The seeds' app then posts the token to /auth/apple, which verifies it.
                let tokens = try await SocialVerificationTests.apple(
                    client,
                    Self.value(target, "id_token")!,
                    code: Self.value(target, "code"),
                    fullName: Self.value(target, "name")
                )
                #expect(tokens.status == .ok && tokens["is_new_user"] == .bool(true))
            }
        }
    }

    @Test func authorizeValidatesItsInput() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer)
            try await app.router { client in
                #expect(try await client.send(.get, "/auth/apple/authorize").errorCode == "invalid_request")
                #expect(try await client.send(.get, "/auth/apple/authorize?code_challenge=short").errorCode == "invalid_request")
                let plain = try await client.send(.get, "/auth/apple/authorize?code_challenge=\(PKCE().challenge)&code_challenge_method=plain")
                #expect(plain.status == .badRequest)
                let nonceless = try await client.send(.get, "/auth/apple/authorize?code_challenge=\(PKCE().challenge)")
                #expect(nonceless.status == .found, "a nonce is generated when the app sends none")
            }
            let (off, _) = try await TestApp.social(issuer: issuer) { $0.appleServicesID = nil }
            try await off.router { client in
                let disabled = try await client.send(.get, "/auth/apple/authorize?code_challenge=\(PKCE().challenge)")
                #expect(disabled.status == .forbidden && disabled.errorCode == "provider_disabled")
            }
        }
    }
}
