import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sign-in through the hosted UI: the request's URL, the callback's state check, and the whole flow
/// against a real server, with the browser's part (the redirects, the form and its cookie) played by
/// a URLSession that follows no redirect.
@Suite("Web UI: authorize URL, callback, code exchange")
struct WebUITests {
    static let redirect = URL(string: "myapp://callback")!
    static let pkce = PKCE(verifier: "dBjftJeZ4CVP-mJ92K1qUdZiXrQQ-vkqgNr5x1hj5m0")

    static func request(state: String = "st-1", provider: WebUIRequest.Provider = .hostedPage) -> WebUIRequest {
        WebUIRequest(
            clientID: "sdk-app",
            redirectURI: redirect,
            scopes: ["profile", "openid", "email"],
            provider: provider,
            forceSignIn: true,
            loginHint: "a+b@example.com",
            pkce: pkce,
            state: state,
            nonce: Nonce(raw: "nonce-1")
        )
    }

    @Test func theAuthorizeURLCarriesTheRequest() throws {
        let url = Self.request(provider: .google).authorizeURL(baseURL: base)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let value = { (name: String) in items.first { $0.name == name }?.value }
        #expect(url.path == "/oauth2/authorize")
        #expect(value("response_type") == "code" && value("client_id") == "sdk-app" && value("redirect_uri") == "myapp://callback")
        #expect(value("scope") == "email openid profile", "sorted, space-separated")
        #expect(value("code_challenge") == "lCGhYiCb_K0SqCiyidc9CnJ4tiNtKl4x7a3vwnWGZVM" && value("code_challenge_method") == "S256")
        #expect(value("state") == "st-1" && value("nonce") == "nonce-1" && value("identity_provider") == "Google")
        #expect(value("prompt") == "login" && value("login_hint") == "a+b@example.com")
        #expect(url.absoluteString.contains("login_hint=a%2Bb@example.com"), "a + is sent as %2B, never read as a space")
        let plain = WebUIRequest(clientID: "c", redirectURI: Self.redirect)
        let other = WebUIRequest(clientID: "c", redirectURI: Self.redirect)
        #expect(plain.state != other.state && plain.pkce != other.pkce && plain.nonce != other.nonce, "fresh secrets per request")
        #expect(!plain.authorizeURL(baseURL: base).absoluteString.contains("identity_provider"))
    }

    @Test func theCallbackMustAnswerThisRequest() throws {
        let request = Self.request()
        let parse = { (text: String) throws(WebUISignInError) in try request.code(fromCallback: URL(string: text)!) }
        #expect(try parse("myapp://callback?code=abc&state=st-1") == "abc")
        #expect(throws: WebUISignInError.stateMismatch) { try parse("myapp://callback?code=abc&state=other") }
        #expect(throws: WebUISignInError.stateMismatch) { try parse("myapp://callback?code=abc") }
        #expect(throws: WebUISignInError.failed("access_denied", description: "no")) {
            try parse("myapp://callback?error=access_denied&error_description=no&state=st-1")
        }
        #expect(throws: WebUISignInError.invalidCallback) { try parse("otherapp://callback?code=abc&state=st-1") }
        #expect(throws: WebUISignInError.invalidCallback) { try parse("myapp://callback?state=st-1") }
        #expect(WebUISignInError.failed("access_denied", description: nil).localizedDescription.contains("cancelled"))
    }

    @Test(.enabled(if: GatehouseServerProcess.isAvailable))
    func theWholeFlowAgainstTheServer() async throws {
        let server = try GatehouseServerProcess(environment: [
            "GATEHOUSE_HOSTED_UI": "true", "GATEHOUSE_CLIENT_ID": "sdk-app", "GATEHOUSE_CALLBACK_URLS": "myapp://callback",
        ])
        defer { server.stop() }
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL, clientID: "sdk-app"))
        let email = "web-\(UUID().uuidString.prefix(6).lowercased())@example.com"
        let sent = Date()
        _ = try await client.signUp(email: email, password: "correct horse 9")
        try await client.confirmSignUp(email: email, code: try await server.latestCode("confirm_signup", for: email, since: sent))

        let request = WebUIRequest(clientID: "sdk-app", redirectURI: Self.redirect)
        let browser = Browser()
        let toLogin = try await browser.get(client.webUIAuthorizeURL(for: request))
        #expect(toLogin.status == 302)
        let location = try #require(toLogin.location)
        let loginURL = try #require(URL(string: location, relativeTo: server.baseURL)?.absoluteURL)
        let page = try await browser.get(loginURL)
        var fields = Browser.hiddenFields(page.body)
        fields["email"] = email
        fields["password"] = "correct horse 9"
        let signedIn = try await browser.post(server.baseURL.appendingPathComponent("login"), form: fields)
        let callback = try #require(signedIn.location.flatMap(URL.init(string:)))
        #expect(callback.scheme == "myapp")

        let result = try await client.completeWebUISignIn(callback: callback, for: request)
        #expect(await client.currentSession == result.session)
        #expect(try await client.profile().email == email)
        // The code is single use; a second exchange is refused (and ends what the first one issued).
        let code = try request.code(fromCallback: callback)
        await expectError(.invalidGrant) { try await client.exchangeAuthorizationCode(code, for: request) }
        // Another request's callback is refused before anything is sent.
        await #expect(throws: WebUISignInError.stateMismatch) {
            try await client.completeWebUISignIn(callback: callback, for: WebUIRequest(clientID: "sdk-app", redirectURI: Self.redirect))
        }
    }
}

/// The browser's part of the flow: no redirect followed, cookies kept by hand.
final class Browser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    struct Page {
        let status: Int
        let location: String?
        let body: String
    }

    private var cookies: [String: String] = [:]
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func get(_ url: URL) async throws -> Page { try await send(URLRequest(url: url)) }

    func post(_ url: URL, form: [String: String]) async throws -> Page {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var components = URLComponents()
        components.queryItems = form.map { URLQueryItem(name: $0.key, value: $0.value) }
        request.httpBody = Data((components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
        return try await send(request)
    }

    private func send(_ request: URLRequest) async throws -> Page {
        var request = request
        if !cookies.isEmpty { request.setValue(cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "), forHTTPHeaderField: "Cookie") }
        let (data, response) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
            session.dataTask(with: request) { data, response, error in
                if let data, let response {
                    continuation.resume(returning: (data, response))
                } else {
                    continuation.resume(throwing: error ?? URLError(.unknown))
                }
            }.resume()
        }
        let http = response as! HTTPURLResponse
        if let setCookie = http.value(forHTTPHeaderField: "Set-Cookie") {
            for part in setCookie.components(separatedBy: ", ") {
                let pair = part.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
            }
        }
        return Page(status: http.statusCode, location: http.value(forHTTPHeaderField: "Location"), body: String(decoding: data, as: UTF8.self))
    }

    /// The hidden fields of a page's first form.
    static func hiddenFields(_ html: String) -> [String: String] {
        var fields: [String: String] = [:]
        let form = html.components(separatedBy: "</form>").first ?? html
        for match in form.matches(of: /<input type="hidden" name="([^"]+)" value="([^"]*)">/) {
            fields[String(match.1)] = String(match.2).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
        return fields
    }
}
