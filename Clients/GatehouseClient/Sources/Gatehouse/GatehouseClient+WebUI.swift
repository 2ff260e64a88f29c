import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sign-in through the server's hosted UI (`GATEHOUSE_HOSTED_UI`): the authorization-code flow with
/// PKCE that Amplify's `signInWithWebUI` runs against Cognito. ``WebUISignIn`` drives it in
/// `ASWebAuthenticationSession`; these are its platform-independent parts.
extension GatehouseClient {
    /// `/oauth2/authorize` for `request`, to open in the browser session.
    ///
    /// - Parameter request: The sign-in's request (its PKCE pair, state and nonce).
    /// - Returns: The URL.
    public nonisolated func webUIAuthorizeURL(for request: WebUIRequest) -> URL {
        request.authorizeURL(baseURL: configuration.baseURL)
    }

    /// `/logout` for the hosted session: opened in the same browser session, it ends the browser's
    /// sign-in (and the session its tokens belong to) and returns to `signOutURI`.
    ///
    /// - Parameters:
    ///   - clientID: The app client id.
    ///   - signOutURI: A URI registered in `GATEHOUSE_SIGNOUT_URLS`.
    /// - Returns: The URL.
    public nonisolated func webUISignOutURL(clientID: String, signOutURI: URL) -> URL {
        var components = URLComponents(url: configuration.baseURL.appendingPathComponent("logout"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "logout_uri", value: signOutURI.absoluteString),
        ]
        return components.url!
    }

    /// Finishes a hosted-UI sign-in: checks the callback against the request (its state), then exchanges
    /// the code with the PKCE verifier and keeps the session.
    ///
    /// - Parameters:
    ///   - callback: The URL the browser called back with.
    ///   - request: The request the sign-in started with.
    /// - Returns: The stored session.
    /// - Throws: ``WebUISignInError`` for a callback that is an error, another request's, or not one at all;
    ///   ``GatehouseError`` from the exchange (`invalidGrant`: the code was used, expired or is not this
    ///   request's: sign in again).
    @discardableResult
    public func completeWebUISignIn(callback: URL, for request: WebUIRequest) async throws -> SignInResult {
        try await exchangeAuthorizationCode(try request.code(fromCallback: callback), for: request)
    }

    /// Exchanges an authorization code at `/oauth2/token` (`grant_type=authorization_code`, the request's
    /// client id, redirect URI and PKCE verifier) and keeps the session it returns.
    ///
    /// - Parameters:
    ///   - code: The callback's `code`.
    ///   - request: The request the code answers.
    /// - Returns: The stored session.
    /// - Throws: ``GatehouseError``: `invalidGrant` (used, expired, another redirect URI or verifier),
    ///   `invalidRequest`, `.other("invalid_client")` (the client id is not the server's), or a transport failure.
    @discardableResult
    public func exchangeAuthorizationCode(_ code: String, for request: WebUIRequest) async throws -> SignInResult {
        var urlRequest = URLRequest(url: configuration.baseURL.appendingPathComponent("oauth2/token"))
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        urlRequest.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var form = URLComponents()
        form.queryItems = [
            URLQueryItem(name: "grant_type", value: "authorization_code"), URLQueryItem(name: "client_id", value: request.clientID),
            URLQueryItem(name: "code", value: code), URLQueryItem(name: "redirect_uri", value: request.redirectURI.absoluteString),
            URLQueryItem(name: "code_verifier", value: request.pkce.verifier),
        ]
        urlRequest.httpBody = Data((form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
        let (data, response) = try await transmit(urlRequest)
        guard (200..<300).contains(response.statusCode) else { throw GatehouseError.server(Self.oauthError(data, response)) }
        return try await begin(data, request.signInMethod)
    }

    /// An RFC 6749 error body (`{"error", "error_description"}`) as a ``ServerError``.
    static func oauthError(_ data: Data, _ response: HTTPURLResponse) -> ServerError {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard let error = object?["error"] as? String else { return ServerError.decode(data, response) }
        return ServerError(
            code: ErrorCode(rawValue: error),
            message: object?["error_description"] as? String ?? error,
            status: response.statusCode,
            requestID: response.value(forHTTPHeaderField: "X-Request-Id"),
            retryAfter: response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
        )
    }
}

extension WebUIRequest {
    /// How a session from this request was made: Apple or Google when it went straight there; otherwise the
    /// hosted page, where the user may have chosen any method (so it is not known to be Apple's).
    var signInMethod: SignInMethod {
        switch provider {
        case .apple: .apple
        case .google: .google
        case .hostedPage: .hostedUI
        }
    }
}
