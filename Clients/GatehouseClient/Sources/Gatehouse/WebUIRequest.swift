import Foundation

/// One sign-in through the server's hosted UI (its OAuth 2.0 authorization server, Cognito's
/// `/oauth2/authorize`): the authorization-code flow with PKCE, as Amplify's `signInWithWebUI` does it.
/// Each request carries its own PKCE pair, `state` and nonce; keep it until the browser calls back, then
/// hand both to ``GatehouseClient/completeWebUISignIn(callback:for:)``.
///
/// ```swift
/// let request = WebUIRequest(clientID: "my-app-client", redirectURI: URL(string: "myapp://callback")!, provider: .google)
/// let url = gatehouse.webUIAuthorizeURL(for: request)   // open in ASWebAuthenticationSession
/// ```
public struct WebUIRequest: Sendable, Equatable {
    /// Where the user signs in: the hosted pages, or straight at Google or Apple.
    public enum Provider: String, Sendable, CaseIterable {
        /// The hosted sign-in page (email and password, sign-up, password reset, and the provider buttons).
        case hostedPage = "COGNITO"
        /// Google, by redirect.
        case google = "Google"
        /// Sign in with Apple, by redirect.
        case apple = "SignInWithApple"
    }

    /// The app client id (`GATEHOUSE_CLIENT_ID`).
    public var clientID: String
    /// The redirect URI registered in `GATEHOUSE_CALLBACK_URLS` (for an app, its custom scheme: `myapp://callback`).
    public var redirectURI: URL
    /// The scopes asked for, sent sorted.
    public var scopes: [String]
    /// Where the user signs in.
    public var provider: Provider
    /// `true` shows the sign-in page even when the browser is already signed in (`prompt=login`).
    public var forceSignIn: Bool
    /// An address to fill into the form.
    public var loginHint: String?
    /// The PKCE pair; the verifier never leaves the app until the code is exchanged.
    public let pkce: PKCE
    /// The `state` the callback must carry back unchanged.
    public let state: String
    /// The nonce the ID token must carry.
    public let nonce: Nonce

    /// A fresh request (new PKCE pair, state and nonce).
    ///
    /// - Parameters:
    ///   - clientID: The app client id.
    ///   - redirectURI: A registered redirect URI.
    ///   - scopes: The scopes (`openid email profile` by default).
    ///   - provider: Where the user signs in (the hosted page by default).
    ///   - forceSignIn: Show the form even with a signed-in browser.
    ///   - loginHint: An address to fill in.
    public init(
        clientID: String,
        redirectURI: URL,
        scopes: [String] = ["openid", "email", "profile"],
        provider: Provider = .hostedPage,
        forceSignIn: Bool = false,
        loginHint: String? = nil
    ) {
        self.init(
            clientID: clientID,
            redirectURI: redirectURI,
            scopes: scopes,
            provider: provider,
            forceSignIn: forceSignIn,
            loginHint: loginHint,
            pkce: PKCE(),
            state: Base64URL.encode(RandomBytes.make(24)),
            nonce: Nonce()
        )
    }

    /// A request with given secrets (tests).
    ///
    /// - Parameters:
    ///   - clientID: The app client id.
    ///   - redirectURI: A registered redirect URI.
    ///   - scopes: The scopes.
    ///   - provider: Where the user signs in.
    ///   - forceSignIn: Show the form even with a signed-in browser.
    ///   - loginHint: An address to fill in.
    ///   - pkce: The PKCE pair.
    ///   - state: The state.
    ///   - nonce: The nonce.
    public init(
        clientID: String,
        redirectURI: URL,
        scopes: [String],
        provider: Provider,
        forceSignIn: Bool,
        loginHint: String?,
        pkce: PKCE,
        state: String,
        nonce: Nonce
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.provider = provider
        self.forceSignIn = forceSignIn
        self.loginHint = loginHint
        self.pkce = pkce
        self.state = state
        self.nonce = nonce
    }

    /// `/oauth2/authorize` on `baseURL` with this request's parameters.
    ///
    /// - Parameter baseURL: The server's base URL.
    /// - Returns: The URL to open in the browser session.
    public func authorizeURL(baseURL: URL) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("oauth2/authorize"), resolvingAgainstBaseURL: false)!
        var items = [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
            URLQueryItem(name: "scope", value: scopes.sorted().joined(separator: " ")), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: pkce.challenge), URLQueryItem(name: "code_challenge_method", value: "S256"),
            URLQueryItem(name: "nonce", value: nonce.raw),
        ]
        if provider != .hostedPage { items.append(URLQueryItem(name: "identity_provider", value: provider.rawValue)) }
        if forceSignIn { items.append(URLQueryItem(name: "prompt", value: "login")) }
        if let loginHint { items.append(URLQueryItem(name: "login_hint", value: loginHint)) }
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// Reads the URL the browser called back with.
    ///
    /// - Parameter url: The callback URL.
    /// - Returns: The authorization code.
    /// - Throws: ``WebUISignInError``: `.failed` with the server's `error` (`access_denied` when the user
    ///   cancelled at a provider), `.stateMismatch` when the state is not this request's (the callback
    ///   answers another request, or was forged), `.invalidCallback` for anything else.
    public func code(fromCallback url: URL) throws(WebUISignInError) -> String {
        guard url.scheme?.lowercased() == redirectURI.scheme?.lowercased(), url.host?.lowercased() == redirectURI.host?.lowercased(),
            url.path == redirectURI.path, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        else { throw .invalidCallback }
        let value = { (name: String) in items.first { $0.name == name }?.value }
        guard value("state") == state else { throw .stateMismatch }
        if let error = value("error") { throw .failed(error, description: value("error_description")) }
        guard let code = value("code"), !code.isEmpty else { throw .invalidCallback }
        return code
    }
}
