import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Gatehouse API for an app: sign-up and sign-in of every kind, the session (kept in a
/// ``TokenStore``, refreshed ahead of expiry, one refresh at a time), and authorised requests.
///
/// A network failure never signs the user out; only the server refusing the refresh token
/// (`invalid_grant`) does, with ``AuthEvent/sessionExpired``.
public actor GatehouseClient {
    public struct Configuration: Sendable {
        /// The server's base URL, e.g. `https://auth.example.com`.
        public var baseURL: URL
        /// Refresh when the access token has less than this many seconds left.
        public var refreshLeeway: TimeInterval

        public init(baseURL: URL, refreshLeeway: TimeInterval = 60) {
            self.baseURL = baseURL
            self.refreshLeeway = refreshLeeway
        }
    }

    public let configuration: Configuration
    private let transport: any HTTPTransport
    private let store: any TokenStore
    private let now: @Sendable () -> Date
    private let hub = EventHub()
    private var session: Session?
    private var loaded = false
    private var refreshing: Task<Session, Error>?

    public init(
        configuration: Configuration, store: any TokenStore = InMemoryTokenStore(), transport: any HTTPTransport = URLSessionTransport(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.store = store
        self.transport = transport
        self.now = now
    }

    /// A client for `baseURL` keeping its session in the Keychain (Apple platforms) or in memory.
    public init(baseURL: URL) {
        #if canImport(Security)
        self.init(configuration: Configuration(baseURL: baseURL), store: KeychainTokenStore())
        #else
        self.init(configuration: Configuration(baseURL: baseURL))
        #endif
    }

    /// Auth events for every subscriber (each call makes a new stream).
    public nonisolated var events: AsyncStream<AuthEvent> { hub.stream() }

    /// The stored session, if any (no network).
    public var currentSession: Session? {
        get throws { try loadedSession() }
    }

    public var isSignedIn: Bool { (try? loadedSession()) != nil }

    // MARK: Email and password

    public func signUp(email: String, password: String, fullName: String? = nil) async throws -> SignUpResult {
        var body: [String: String] = ["email": email, "password": password]
        if let fullName { body["full_name"] = fullName }
        return try decode(SignUpResult.self, try await call("POST", "/auth/signup", body: body))
    }

    public func confirmSignUp(email: String, code: String) async throws {
        _ = try await call("POST", "/auth/confirm", body: ["email": email, "code": code])
    }

    @discardableResult
    public func resendCode(email: String) async throws -> CodeDelivery {
        try decode(DeliveryEnvelope.self, try await call("POST", "/auth/resend-code", body: ["email": email])).codeDelivery
    }

    @discardableResult
    public func signIn(email: String, password: String) async throws -> Session {
        try await begin(try await call("POST", "/auth/signin", body: ["email": email, "password": password])).session
    }

    @discardableResult
    public func forgotPassword(email: String) async throws -> CodeDelivery {
        try decode(DeliveryEnvelope.self, try await call("POST", "/auth/password/forgot", body: ["email": email])).codeDelivery
    }

    /// Sets a new password with the emailed code. Every session ends; sign in again afterwards.
    public func resetPassword(email: String, code: String, newPassword: String) async throws {
        _ = try await call("POST", "/auth/password/reset", body: ["email": email, "code": code, "new_password": newPassword])
    }

    /// Changes the signed-in user's password; their other sessions end, this one stays.
    public func changePassword(current: String, new: String) async throws {
        _ = try await authorized("POST", "/auth/password/change", body: ["current_password": current, "new_password": new])
    }

    // MARK: Apple and Google

    /// Exchanges Sign in with Apple's result for a session. `rawNonce` is the ``Nonce/raw`` whose hash
    /// went into the Apple request; `email` and `fullName` come only on the first authorisation.
    @discardableResult
    public func signInWithApple(identityToken: String, authorizationCode: String?, rawNonce: String?, email: String? = nil, fullName: String? = nil) async throws -> SignInResult {
        var body = ["identity_token": identityToken]
        body["authorization_code"] = authorizationCode
        body["nonce"] = rawNonce
        body["email"] = email
        body["full_name"] = fullName
        return try await begin(try await call("POST", "/auth/apple", body: body))
    }

    /// Exchanges a Google ID token (from GoogleSignIn or Credential Manager) for a session.
    @discardableResult
    public func signInWithGoogle(idToken: String, rawNonce: String?, fullName: String? = nil) async throws -> SignInResult {
        var body = ["id_token": idToken]
        body["nonce"] = rawNonce
        body["full_name"] = fullName
        return try await begin(try await call("POST", "/auth/google", body: body))
    }

    /// The URL that starts Sign in with Apple in a browser (web and Android-style flows); open it in
    /// an `ASWebAuthenticationSession` with callback scheme = the server's app scheme. The flow must
    /// finish in the browser session that opened this URL (the server binds it with a cookie).
    public nonisolated func appleAuthorizeURL(pkce: PKCE, nonce: Nonce? = nil) -> URL {
        var components = URLComponents(url: configuration.baseURL.appendingPathComponent("auth/apple/authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "code_challenge", value: pkce.challenge), URLQueryItem(name: "code_challenge_method", value: "S256")]
        if let nonce { components.queryItems?.append(URLQueryItem(name: "nonce", value: nonce.raw)) }
        return components.url!
    }

    /// Redeems the hand-off code from `<scheme>://apple-callback?code=…` with the PKCE verifier.
    @discardableResult
    public func redeemHandoff(code: String, codeVerifier: String) async throws -> SignInResult {
        try await begin(try await call("POST", "/auth/handoff", body: ["code": code, "code_verifier": codeVerifier]))
    }

    // MARK: Session

    /// Refreshes now (sharing a refresh already under way). `invalid_grant` ends the session.
    @discardableResult
    public func refresh() async throws -> Session {
        guard let current = try loadedSession() else { throw GatehouseError.notSignedIn }
        return try await refreshed(from: current)
    }

    /// A valid access token: the stored one, or a refreshed one when it is about to expire.
    public func validAccessToken() async throws -> String {
        guard let current = try loadedSession() else { throw GatehouseError.notSignedIn }
        if current.isExpiring(at: now(), leeway: configuration.refreshLeeway) {
            return try await refreshed(from: current).accessToken
        }
        return current.accessToken
    }

    /// Signs out: the server ends the session; locally the session is gone whatever the network says.
    public func signOut() async throws {
        guard let current = try loadedSession() else { return }
        try end(.signedOut)
        _ = try? await call("POST", "/auth/signout", body: ["refresh_token": current.refreshToken])
    }

    /// Ends every session of the user on every device.
    public func signOutEverywhere() async throws {
        _ = try await authorized("POST", "/auth/signout/all", body: nil)
        try end(.signedOut)
    }

    // MARK: Profile

    public func currentUser() async throws -> Profile {
        try decode(Profile.self, try await authorized("GET", "/me", body: nil))
    }

    /// Sets the display name (`nil` clears it).
    public func updateProfile(fullName: String?) async throws -> Profile {
        let body = try JSONSerialization.data(withJSONObject: ["full_name": fullName.map { $0 as Any } ?? NSNull()])
        return try decode(Profile.self, try await authorized("PATCH", "/me", rawBody: body))
    }

    /// Deletes the account and everything of it (the App Store requires offering this).
    public func deleteAccount() async throws {
        _ = try await authorized("DELETE", "/me", body: nil)
        try end(.userDeleted)
    }

    /// Sends a request to your own API with the bearer token; after a 401 it refreshes once and retries.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let token = try await validAccessToken()
        var first = request
        first.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await transmit(first)
        guard response.statusCode == 401 else { return (data, response) }
        let fresh = try await refreshAfterRejection(of: token)
        var second = request
        second.setValue("Bearer \(fresh)", forHTTPHeaderField: "Authorization")
        return try await transmit(second)
    }

    // MARK: Internals

    private struct DeliveryEnvelope: Decodable { var codeDelivery: CodeDelivery }

    private struct TokenResponse: Decodable {
        var idToken: String
        var accessToken: String
        var refreshToken: String
        var expiresIn: Double
        var isNewUser: Bool?
    }

    private func loadedSession() throws -> Session? {
        if !loaded {
            session = try store.load()
            loaded = true
        }
        return session
    }

    private func keep(_ new: Session) throws {
        try store.save(new)
        session = new
        loaded = true
    }

    private func end(_ event: AuthEvent) throws {
        session = nil
        loaded = true
        refreshing = nil
        try store.clear()
        hub.emit(event)
    }

    private func sessionFrom(_ data: Data, previous: Session? = nil) throws -> (Session, Bool?) {
        let tokens = try decode(TokenResponse.self, data)
        let session = Session(
            idToken: tokens.idToken, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            // Whole seconds, rounded down: it survives any store's round trip exactly and errs early.
            expiresAt: Date(timeIntervalSince1970: (now().timeIntervalSince1970 + tokens.expiresIn).rounded(.down)))
        return (session, tokens.isNewUser)
    }

    private func begin(_ data: Data) async throws -> SignInResult {
        let (new, isNewUser) = try sessionFrom(data)
        try keep(new)
        hub.emit(.signedIn)
        return SignInResult(session: new, isNewUser: isNewUser)
    }

    /// One refresh at a time: callers arriving while one runs share its result.
    private func refreshed(from current: Session) async throws -> Session {
        if let refreshing { return try await refreshing.value }
        let task = Task { try await self.performRefresh(current) }
        refreshing = task
        defer { if refreshing == task { refreshing = nil } }
        return try await task.value
    }

    private func performRefresh(_ current: Session) async throws -> Session {
        do {
            let (new, _) = try sessionFrom(try await call("POST", "/auth/refresh", body: ["refresh_token": current.refreshToken]))
            // A sign-out while the refresh was in flight wins.
            guard session?.refreshToken == current.refreshToken else { throw GatehouseError.notSignedIn }
            try keep(new)
            hub.emit(.tokenRefreshed)
            return new
        } catch let error as GatehouseError where error.code == .invalidGrant {
            if session?.refreshToken == current.refreshToken { try end(.sessionExpired) }
            throw error
        }
    }

    /// After a 401: refresh unless another caller already replaced the rejected token.
    private func refreshAfterRejection(of token: String) async throws -> String {
        guard let current = try loadedSession() else { throw GatehouseError.notSignedIn }
        if current.accessToken != token { return current.accessToken }
        return try await refreshed(from: current).accessToken
    }

    private func authorized(_ method: String, _ path: String, body: [String: String]?) async throws -> Data {
        try await authorized(method, path, rawBody: try body.map { try JSONSerialization.data(withJSONObject: $0) })
    }

    private func authorized(_ method: String, _ path: String, rawBody: Data?) async throws -> Data {
        let (data, response) = try await send(request(method, path, rawBody))
        return try checked(data, response)
    }

    private func call(_ method: String, _ path: String, body: [String: String]?) async throws -> Data {
        let (data, response) = try await transmit(request(method, path, try body.map { try JSONSerialization.data(withJSONObject: $0) }))
        return try checked(data, response)
    }

    private func request(_ method: String, _ path: String, _ body: Data?) -> URLRequest {
        var request = URLRequest(url: configuration.baseURL.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    private func transmit(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await transport.send(request)
        } catch let error as GatehouseError {
            throw error
        } catch {
            throw GatehouseError.transport(error.localizedDescription)
        }
    }

    private func checked(_ data: Data, _ response: HTTPURLResponse) throws -> Data {
        if (200..<300).contains(response.statusCode) { return data }
        throw GatehouseError.server(ServerError.decode(data, response))
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try Self.decoder.decode(type, from: data)
        } catch {
            throw GatehouseError.invalidResponse("\(T.self): \(error)")
        }
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

extension ServerError {
    static func decode(_ data: Data, _ response: HTTPURLResponse) -> ServerError {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        let code = (error?["code"] as? String).map(ErrorCode.init(rawValue:)) ?? .other("http_\(response.statusCode)")
        return ServerError(
            code: code, message: error?["message"] as? String ?? HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
            status: response.statusCode, requestID: response.value(forHTTPHeaderField: "X-Request-Id"),
            retryAfter: response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) })
    }
}
