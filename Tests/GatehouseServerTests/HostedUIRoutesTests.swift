import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// The hosted UI's authorization server in process (`Tests/browser/test_hosted_ui.py` drives it with
/// Authlib and Chromium): the code flow, single sign-on, what ends a hosted session, and the refusals
/// a client or an attacker meets.
@Suite("Hosted UI: authorization codes, hosted sessions and refusals", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct HostedUIRoutesTests {
    static let callback = "myapp://callback"
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    static func app() async throws -> TestApp {
        try await TestApp.make { c in
            c.hostedUI = true
            c.callbackURLs = [callback, "https://app.example.com/cb"]
            c.signOutURLs = ["myapp://signout"]
        }
    }

    static func authorizeQuery(_ extra: [(String, String)] = [], dropping: Set<String> = []) -> String {
        let items =
            [
                ("response_type", "code"), ("client_id", "test-client"), ("redirect_uri", callback), ("code_challenge", challenge),
                ("code_challenge_method", "S256"), ("state", "st-1"), ("nonce", "n-1"),
            ].filter { !dropping.contains($0.0) } + extra
        return items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
    }

    /// The query of a redirect's `Location`.
    static func query(_ reply: Reply) -> [String: String] {
        guard let location = reply.headers[.location], let items = URLComponents(string: location)?.queryItems else { return [:] }
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    /// `name=value` of a `Set-Cookie` for `name`.
    static func cookie(_ reply: Reply, _ name: String) -> String? {
        reply.headers[values: .setCookie].first { $0.hasPrefix(name + "=") }.map { String($0.split(separator: ";")[0]) }
    }

    /// Signs up `email` through the API, then through the hosted form; returns the code, the session cookie.
    static func signIn(
        _ client: any TestClientProtocol,
        _ app: TestApp,
        email: String = "alice@example.com"
    ) async throws -> (
        code: String, session: String
    ) {
        _ = try await client.signedIn(app, email: email)
        let page = try await client.send(.get, "/login?" + authorizeQuery())
        #expect(page.status == .ok)
        let form = try #require(cookie(page, "gatehouse-form"))
        let csrf = try #require(page.bodyText.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
        let fields = authorizeQuery() + "&email=\(email)&password=correct+horse+9&csrf=\(csrf)"
        let done = try await client.send(
            .post,
            "/login",
            raw: fields,
            contentType: "application/x-www-form-urlencoded",
            headers: [.cookie: form]
        )
        #expect(done.status == .found, "\(done.bodyText)")
        let code = try #require(query(done)["code"])
        #expect(query(done)["state"] == "st-1")
        return (code, try #require(cookie(done, "gatehouse-session")))
    }

    static func redeem(
        _ client: any TestClientProtocol,
        code: String,
        verifier: String = verifier,
        redirect: String = callback
    ) async throws
        -> Reply
    {
        let body = "grant_type=authorization_code&client_id=test-client&code=\(code)&code_verifier=\(verifier)&redirect_uri=\(redirect)"
        return try await client.send(.post, "/oauth2/token", raw: body, contentType: "application/x-www-form-urlencoded")
    }

    @Test func theCodeFlowIssuesTokensAndASecondAuthorizeSkipsTheForm() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let first = try await client.send(.get, "/oauth2/authorize?" + Self.authorizeQuery())
            #expect(first.status == .found && first.headers[.location]?.hasPrefix("/login?") == true)
            let (code, session) = try await Self.signIn(client, app)
            let tokens = try await Self.redeem(client, code: code)
            #expect(tokens.status == .ok && tokens.headers[.cacheControl] == "no-store")
            let claims = try CompactJWS(parsing: tokens.string("id_token")).claims
            #expect(claims["nonce"]?.stringValue == "n-1" && claims["email"]?.stringValue == "alice@example.com")
            #expect(!tokens.string("refresh_token").isEmpty && tokens["expires_in"]?.int64Value == 3600)
            // The same browser asks again: a code at once, bound to this request's own nonce.
            let again = try await client.send(
                .get,
                "/oauth2/authorize?" + Self.authorizeQuery([("prompt", "none")], dropping: ["nonce"]),
                headers: [.cookie: session]
            )
            let second = try #require(Self.query(again)["code"])
            let secondTokens = try await Self.redeem(client, code: second)
            #expect(try CompactJWS(parsing: secondTokens.string("id_token")).claims["nonce"] == nil)
            // prompt=login shows the form even so.
            let login = try await client.send(.get, "/oauth2/authorize?" + Self.authorizeQuery([("prompt", "login")]), headers: [.cookie: session])
            #expect(login.headers[.location]?.hasPrefix("/login?") == true)
        }
    }

    @Test func aCodeUsedTwiceIsRefusedAndEndsWhatItsFirstUseIssued() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let (code, session) = try await Self.signIn(client, app)
            let tokens = try await Self.redeem(client, code: code)
            #expect(tokens.status == .ok)
            let reuse = try await Self.redeem(client, code: code)
            #expect(reuse.status == .badRequest && reuse.string("error") == "invalid_grant")
            let refresh = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(tokens.string("refresh_token"))])
            #expect(refresh.status == .unauthorized, "the first use's tokens end with it")
            let silent = try await client.send(.get, "/oauth2/authorize?" + Self.authorizeQuery([("prompt", "none")]), headers: [.cookie: session])
            #expect(Self.query(silent)["error"] == "login_required", "and the browser's hosted session")
        }
    }

    @Test func aRefusedRedemptionDoesNotSpendTheCode() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let (code, _) = try await Self.signIn(client, app)
            let wrong = try await Self.redeem(client, code: code, verifier: String(repeating: "a", count: 43))
            #expect(wrong.string("error") == "invalid_grant")
            let elsewhere = try await Self.redeem(client, code: code, redirect: "https://app.example.com/cb")
            #expect(elsewhere.string("error") == "invalid_grant")
            #expect(try await Self.redeem(client, code: code).status == .ok)
        }
    }

    @Test func anExpiredCodeIsRefused() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let (code, _) = try await Self.signIn(client, app)
            app.clock.advance(by: 301)
            #expect(try await Self.redeem(client, code: code).string("error") == "invalid_grant")
        }
    }

    @Test(arguments: [
        "client_id=other&redirect_uri=myapp://callback", "client_id=test-client&redirect_uri=https://evil.example/cb",
        "client_id=test-client", "redirect_uri=myapp://callback",
    ])
    func anUnknownClientOrRedirectURIIsAPageNeverARedirect(_ query: String) async throws {
        let app = try await Self.app()
        try await app.router { client in
            let reply = try await client.send(.get, "/oauth2/authorize?response_type=code&\(query)")
            #expect(reply.status == .badRequest && reply.headers[.location] == nil)
            #expect(reply.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
        }
    }

    @Test func otherRefusalsGoBackWithTheState() async throws {
        let app = try await Self.app()
        try await app.router { client in
            for (query, error) in [
                (Self.authorizeQuery(dropping: ["code_challenge"]), "invalid_request"),
                (Self.authorizeQuery([("scope", "openid admin")]), "invalid_scope"),
                (Self.authorizeQuery([("prompt", "none")]), "login_required"),
            ] {
                let reply = try await client.send(.get, "/oauth2/authorize?" + query)
                #expect(reply.status == .found && reply.headers[.location]?.hasPrefix(Self.callback + "?") == true)
                #expect(Self.query(reply)["error"] == error && Self.query(reply)["state"] == "st-1", "\(query)")
            }
            // A parameter sent twice is refused; a state sent twice is not echoed (neither copy is known to be the client's).
            let twice = try await client.send(.get, "/oauth2/authorize?" + Self.authorizeQuery([("state", "again")]))
            #expect(Self.query(twice)["error"] == "invalid_request" && Self.query(twice)["state"] == nil)
        }
    }

    @Test func aFormWithoutItsBrowsersTokenDoesNothing() async throws {
        let app = try await Self.app()
        try await app.router { client in
            _ = try await client.signedIn(app)
            let page = try await client.send(.get, "/login?" + Self.authorizeQuery())
            let csrf = try #require(page.bodyText.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
            let fields = Self.authorizeQuery() + "&email=alice@example.com&password=correct+horse+9&csrf=\(csrf)"
            for cookie in ["", "gatehouse-form=someone-elses"] {
                let reply = try await client.send(
                    .post,
                    "/login",
                    raw: fields,
                    contentType: "application/x-www-form-urlencoded",
                    headers: cookie.isEmpty ? [:] : [.cookie: cookie]
                )
                #expect(reply.status == .forbidden && reply.headers[.location] == nil && reply.headers[.setCookie] == nil)
            }
        }
    }

    @Test func logoutEndsTheSessionAndRedirectsOnlyToARegisteredURI() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let (code, session) = try await Self.signIn(client, app)
            let tokens = try await Self.redeem(client, code: code)
            let evil = try await client.send(.get, "/logout?client_id=test-client&logout_uri=https://evil.example/", headers: [.cookie: session])
            #expect(evil.status == .badRequest && evil.headers[.location] == nil)
            let out = try await client.send(.get, "/logout?client_id=test-client&logout_uri=myapp://signout", headers: [.cookie: session])
            #expect(out.status == .found && out.headers[.location] == "myapp://signout")
            #expect(Self.cookie(out, "gatehouse-session") == "gatehouse-session=")
            let refresh = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(tokens.string("refresh_token"))])
            #expect(refresh.status == .unauthorized)
        }
    }

    @Test func signingOutEverywhereEndsTheHostedSession() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let (code, session) = try await Self.signIn(client, app)
            let tokens = try await Self.redeem(client, code: code)
            #expect(try await client.send(.post, "/auth/signout/all", bearer: tokens.string("access_token")).status == .noContent)
            let silent = try await client.send(.get, "/oauth2/authorize?" + Self.authorizeQuery([("prompt", "none")]), headers: [.cookie: session])
            #expect(Self.query(silent)["error"] == "login_required")
        }
    }

    @Test func refreshTokenReuseAndAccountDeletionEndTheHostedSession() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let (code, session) = try await Self.signIn(client, app)
            let tokens = try await Self.redeem(client, code: code)
            let old = tokens.string("refresh_token")
            #expect(try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(old)]).status == .ok)
            app.clock.advance(by: 120)  // past the reuse grace: the rotated-out token is a replay
            #expect(try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(old)]).status == .unauthorized)
            let silent = try await client.send(.get, "/oauth2/authorize?" + Self.authorizeQuery([("prompt", "none")]), headers: [.cookie: session])
            #expect(Self.query(silent)["error"] == "login_required", "reuse ended the browser's session too")

            let (second, again) = try await Self.signIn(client, app, email: "bob@example.com")
            let bob = try await Self.redeem(client, code: second)
            #expect(try await client.send(.delete, "/me", bearer: bob.string("access_token")).status == .noContent)
            let gone = try await client.send(.get, "/oauth2/authorize?" + Self.authorizeQuery([("prompt", "none")]), headers: [.cookie: again])
            #expect(Self.query(gone)["error"] == "login_required", "deletion ended it")
        }
    }

    @Test func theTokenEndpointAnswersAsRFC6749Says() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let form = "application/x-www-form-urlencoded"
            let unknownGrant = try await client.send(.post, "/oauth2/token", raw: "grant_type=password&client_id=test-client", contentType: form)
            #expect(unknownGrant.status == .badRequest && unknownGrant.string("error") == "unsupported_grant_type")
            let noClient = try await client.send(.post, "/oauth2/token", raw: "grant_type=authorization_code&code=x", contentType: form)
            #expect(noClient.status == .unauthorized && noClient.string("error") == "invalid_client")
            let json = try await client.send(.post, "/oauth2/token", json: ["grant_type": "authorization_code"])
            #expect(json.status == .badRequest && json.string("error") == "invalid_request")
            let forged = try await Self.redeem(client, code: "v1.forged")
            #expect(forged.string("error") == "invalid_grant" && forged.headers[.cacheControl] == "no-store")
        }
    }

    @Test func theDiscoveryDocumentNamesTheEndpoints() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let doc = try await client.send(.get, "/.well-known/openid-configuration")
            #expect(doc.string("authorization_endpoint") == "http://gatehouse.test/oauth2/authorize")
            #expect(doc.string("token_endpoint") == "http://gatehouse.test/oauth2/token")
            #expect(doc["code_challenge_methods_supported"] == ["S256"])
        }
    }

    @Test(arguments: [
        ["GATEHOUSE_HOSTED_UI": "true"],
        ["GATEHOUSE_HOSTED_UI": "true", "GATEHOUSE_CALLBACK_URLS": "http://app.example.com/cb"],
        ["GATEHOUSE_HOSTED_UI": "true", "GATEHOUSE_CALLBACK_URLS": "javascript:alert(1)"],
        ["GATEHOUSE_HOSTED_UI": "true", "GATEHOUSE_CALLBACK_URLS": "https://app.example.com/cb#frag"],
        ["GATEHOUSE_HOSTED_UI": "true", "GATEHOUSE_CALLBACK_URLS": "myapp://cb", "GATEHOUSE_SIGNOUT_URLS": "data:text/html,x"],
        ["GATEHOUSE_GOOGLE_WEB_CLIENT_ID": "web-client"],
        [
            "GATEHOUSE_HOSTED_UI": "true", "GATEHOUSE_CALLBACK_URLS": "myapp://cb", "GATEHOUSE_IDENTITY_PROVIDER": "cognito",
            "GATEHOUSE_COGNITO_USER_POOL_ID": "eu-west-1_Abc", "GATEHOUSE_COGNITO_CLIENT_ID": "c",
        ],
    ])
    func misconfigurationIsRefusedByName(_ env: [String: String]) {
        #expect(throws: ConfigurationError.self) { try GatehouseConfiguration.fromEnvironment(env) }
    }
}
