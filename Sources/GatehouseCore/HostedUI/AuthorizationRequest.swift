import Foundation
import GatehouseInfrastructure

/// An OAuth 2.0 authorization request (`/oauth2/authorize`, RFC 6749 §4.1.1 with PKCE, RFC 7636, and
/// OpenID Connect's `nonce` and `prompt`), checked against the one app client. Only what passed the
/// checks is kept; ``queryItems`` writes it back out, so a page can carry the request through its forms
/// and check it again on every post.
public struct AuthorizationRequest: Sendable, Equatable {
    /// Where the user signs in: the pages, or straight at Google or Apple (Cognito's `identity_provider`).
    public enum IdentityProvider: String, Sendable, CaseIterable {
        /// The sign-in page (also when `identity_provider` is absent).
        case cognito = "COGNITO"
        /// Google, by redirect.
        case google = "Google"
        /// Sign in with Apple, by redirect.
        case apple = "SignInWithApple"
    }

    /// OpenID Connect's `prompt`.
    public enum Prompt: String, Sendable {
        /// `none`: never show a page; answer `login_required` when the browser has no hosted session.
        /// (Not named `none`, which `Prompt?` would read as `nil`.)
        case noInteraction = "none"
        /// Always show the sign-in page, even with a hosted session.
        case login
    }

    /// The scopes a client may ask for; anything else is `invalid_scope`.
    public static let supportedScopes: [String] = ["openid", "email", "profile", "phone", "aws.cognito.signin.user.admin"]
    /// The scopes granted when the request names none.
    public static let defaultScopes: [String] = ["openid", "email", "profile"]

    /// The app client's id.
    public var clientID: String
    /// The registered redirect URI the code goes back to.
    public var redirectURI: String
    /// The client's opaque `state`, returned unchanged.
    public var state: String?
    /// The granted scopes, sorted.
    public var scopes: [String]
    /// The PKCE S256 challenge.
    public var codeChallenge: String
    /// The client's nonce, carried into the ID token.
    public var nonce: String?
    /// Where the user signs in; `nil` is the sign-in page.
    public var identityProvider: IdentityProvider?
    /// `none` or `login`.
    public var prompt: Prompt?
    /// An address to fill into the sign-in form.
    public var loginHint: String?

    /// The request as query items, in a fixed order: what the pages carry and `/login` receives.
    public var queryItems: [(name: String, value: String)] {
        var items: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
            ("scope", scopes.joined(separator: " ")), ("code_challenge", codeChallenge), ("code_challenge_method", "S256"),
        ]
        if let state { items.append(("state", state)) }
        if let nonce { items.append(("nonce", nonce)) }
        if let identityProvider { items.append(("identity_provider", identityProvider.rawValue)) }
        if let prompt { items.append(("prompt", prompt.rawValue)) }
        if let loginHint { items.append(("login_hint", loginHint)) }
        return items
    }

    /// The same request without `prompt` and `identity_provider`: what a page posts back once the user
    /// chose how to sign in.
    public var continuingOnPage: AuthorizationRequest {
        var copy = self
        copy.prompt = nil
        copy.identityProvider = nil
        return copy
    }

    /// Checks a request's parameters.
    /// - Parameters:
    ///   - items: The query (or form) parameters in order; a parameter given twice is refused.
    ///   - clientID: The app client's id.
    ///   - callbackURLs: The registered redirect URIs.
    /// - Returns: The checked request.
    /// - Throws: ``AuthorizationRefusal``: a page for an unknown client or redirect URI, a redirect otherwise.
    public static func parse(
        _ items: [(name: String, value: String)],
        clientID: String,
        callbackURLs: Set<String>
    ) throws(AuthorizationRefusal) -> AuthorizationRequest {
        var values: [String: String] = [:]
        var repeated: [String] = []
        for (name, value) in items {
            if values.updateValue(value, forKey: name) != nil { repeated.append(name) }
        }
        if repeated.contains("client_id") { throw .unknownClient("The request names 'client_id' more than once.") }
        guard let client = values["client_id"], !client.isEmpty else { throw .unknownClient("The request has no 'client_id'.") }
        guard client.utf8.count <= 128, ConstantTime.equals(Array(client.utf8), Array(clientID.utf8)) else {
            throw .unknownClient("The client id is not registered with this server.")
        }
        if repeated.contains("redirect_uri") { throw .unregisteredRedirect("The request names 'redirect_uri' more than once.") }
        guard let redirect = values["redirect_uri"], !redirect.isEmpty else { throw .unregisteredRedirect("The request has no 'redirect_uri'.") }
        guard redirect.utf8.count <= 2048, callbackURLs.contains(redirect) else {
            throw .unregisteredRedirect("The redirect URI is not registered for this client (GATEHOUSE_CALLBACK_URLS).")
        }
        // A state sent twice is not echoed: neither copy is known to be the client's.
        let state = repeated.contains("state") ? nil : values["state"]
        func refuse(_ error: String, _ description: String) -> AuthorizationRefusal {
            // A state too long to echo safely is not echoed.
            .redirect(to: redirect, error: error, description: description, state: (state?.utf8.count ?? 0) <= 2048 ? state : nil)
        }
        if let name = repeated.first { throw refuse("invalid_request", "The request names '\(name.prefix(64))' more than once.") }
        if let state, state.isEmpty || state.utf8.count > 2048 { throw refuse("invalid_request", "'state' must be 1 to 2048 characters.") }
        guard let responseType = values["response_type"] else { throw refuse("invalid_request", "'response_type' is required.") }
        guard responseType == "code" else { throw refuse("unsupported_response_type", "Only response_type=code is supported.") }
        var scopes = defaultScopes
        if let scope = values["scope"] {
            let requested = Set(scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init))
            guard !requested.isEmpty else { throw refuse("invalid_scope", "'scope' names no scope.") }
            let unknown = requested.subtracting(supportedScopes)
            guard unknown.isEmpty else {
                throw refuse("invalid_scope", "Unsupported scope; this client may ask for: \(supportedScopes.joined(separator: " ")).")
            }
            scopes = requested.sorted()
        }
        guard let challenge = values["code_challenge"] else {
            throw refuse("invalid_request", "PKCE is required: send code_challenge and code_challenge_method=S256.")
        }
        guard values["code_challenge_method"] == "S256" else {
            throw refuse("invalid_request", "Only code_challenge_method=S256 is supported, and it must be named.")
        }
        guard PKCE.isChallenge(challenge) else {
            throw refuse("invalid_request", "'code_challenge' must be the 43-character base64url SHA-256 of the code verifier.")
        }
        let nonce = values["nonce"]
        if let nonce, !Self.isPrintable(nonce, max: 512) { throw refuse("invalid_request", "'nonce' must be 1 to 512 printable ASCII characters.") }
        var provider: IdentityProvider?
        if let raw = values["identity_provider"] {
            guard let known = IdentityProvider(rawValue: raw) else {
                throw refuse("invalid_request", "Unknown identity_provider; use COGNITO, Google or SignInWithApple.")
            }
            provider = known == .cognito ? nil : known
        }
        var prompt: Prompt?
        if let raw = values["prompt"] {
            guard let known = Prompt(rawValue: raw) else { throw refuse("invalid_request", "'prompt' must be none or login.") }
            prompt = known
        }
        let hint = values["login_hint"].flatMap { $0.isEmpty ? nil : $0 }
        if let hint, hint.utf8.count > 320 || hint.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw refuse("invalid_request", "'login_hint' must be an address of at most 320 characters.")
        }
        return AuthorizationRequest(
            clientID: clientID,
            redirectURI: redirect,
            state: state,
            scopes: scopes,
            codeChallenge: challenge,
            nonce: nonce,
            identityProvider: provider,
            prompt: prompt,
            loginHint: hint
        )
    }

    static func isPrintable(_ value: String, max: Int) -> Bool {
        (1...max).contains(value.utf8.count) && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// A refusal of this request on its redirect URI.
    /// - Parameters:
    ///   - error: The RFC 6749 error code.
    ///   - description: What went wrong, for the developer.
    /// - Returns: The refusal.
    public func refusal(_ error: String, _ description: String) -> AuthorizationRefusal {
        .redirect(to: redirectURI, error: error, description: description, state: state)
    }
}
