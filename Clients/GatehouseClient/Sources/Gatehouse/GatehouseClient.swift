import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Gatehouse API for an app: sign-up and sign-in of every kind, the session (kept in a
/// ``TokenStore``, refreshed ahead of expiry, one refresh at a time), and authorised requests.
///
/// A network failure never signs the user out; only the server refusing the refresh token
/// (`invalid_grant`), or refusing the access token a refresh has just issued, does, with ``AuthEvent/sessionExpired``.
public actor GatehouseClient {
    /// The server and refresh settings this client was made with.
    public let configuration: Configuration
    // Shared with the extensions in GatehouseClient+Session.swift and GatehouseClient+Requests.swift.
    let transport: any HTTPTransport
    let store: any TokenStore
    let now: @Sendable () -> Date
    let sleep: @Sendable (TimeInterval) async throws -> Void
    /// Serialises refreshes with other clients and processes sharing the store, if any.
    let refreshCoordinator: (any RefreshCoordinator)?
    let hub = EventHub()
    /// The session as last read from or written to `store`; `loaded` says whether the store was read yet.
    var session: Session? { didSet { mirror.set(session, restored: loaded) } }
    var loaded = false { didSet { mirror.set(session, restored: loaded) } }
    let mirror = SessionMirror()
    /// A session the store refused to write; written again before the session is next used.
    var unsaved: Session?
    /// The session ended but the store refused to delete it; deleted again before the next use.
    var uncleared = false
    /// The refresh under way and the refresh token it presents, shared by every caller holding that token.
    var refreshing: (token: String, shared: SharedRefresh)?
    /// The `mfa_token` of the last sign-in that answered `mfa_required`, and how that sign-in began (its first
    /// factor), recorded on the session ``completeSecondFactor(mfaToken:code:)`` starts.
    var pendingSecondFactor: (token: String, method: SignInMethod)?

    /// A client with every part chosen: tests pass a stub transport and a fixed clock, apps usually
    /// only a store (``KeychainTokenStore``, ``FileTokenStore``).
    ///
    /// - Parameters:
    ///   - configuration: The server's base URL and the refresh leeway.
    ///   - store: Where the session is kept between launches; in memory by default (signed out on relaunch).
    ///   - transport: What sends the HTTP requests; an ephemeral `URLSession` by default.
    ///   - now: The clock used to decide when the access token needs a refresh.
    ///   - refreshCoordinator: Shared with every client and process using the same store (an app and its
    ///     extensions): one refresh at a time across all of them. Without one, a client still re-reads the store
    ///     before each refresh and adopts a newer stored session after losing a race.
    ///   - sleep: How the client waits out a `Retry-After` (tests pass one that returns at once).
    public init(
        configuration: Configuration,
        store: any TokenStore = InMemoryTokenStore(),
        refreshCoordinator: (any RefreshCoordinator)? = nil,
        transport: any HTTPTransport = URLSessionTransport(),
        now: @escaping @Sendable () -> Date = Date.init,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    ) {
        self.configuration = configuration
        self.store = store
        self.transport = transport
        self.now = now
        self.sleep = sleep
        self.refreshCoordinator = refreshCoordinator
    }

    /// A client for `baseURL` keeping its session in the Keychain (Apple platforms; the item is keyed by server
    /// and client id) or in memory.
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL, e.g. `https://auth.example.com`.
    ///   - clientID: The app client id (`GATEHOUSE_CLIENT_ID`), so sessions of different clients never mix.
    public init(baseURL: URL, clientID: String? = nil) {
        let configuration = Configuration(baseURL: baseURL, clientID: clientID)
        #if canImport(Security)
        self.init(configuration: configuration, store: KeychainTokenStore(for: configuration))
        #else
        self.init(configuration: configuration)
        #endif
    }

    /// Auth events for every subscriber (each call makes a new stream); it never yields
    /// ``AuthEvent/initialSession``. Prefer ``authStateChanges``, which starts with the current state.
    public nonisolated var events: AsyncStream<AuthEvent> { hub.stream() }

    /// The current state first (``AuthEvent/initialSession`` with the restored session, or `nil` when signed
    /// out), then every change, each with the session as it is after it. Each access makes a new stream;
    /// any number may be open.
    ///
    /// ```swift
    /// for await change in gatehouse.authStateChanges {
    ///     showSignIn(change.session == nil)
    /// }
    /// ```
    public nonisolated var authStateChanges: AsyncStream<AuthStateChange> {
        let (stream, id) = hub.pendingStateStream()
        Task { await self.activate(id) }
        return stream
    }

    /// The session, synchronously and without network: `nil` when signed out, and until the store has been
    /// read (``restore()``, or any call that needs the session). The tokens in it may be expired or revoked;
    /// ``validAccessToken()`` and ``send(_:)`` deal with that.
    public nonisolated var currentSession: Session? { mirror.session }

    /// The signed-in user from the ID token's claims, synchronously and without network (see ``User``).
    public nonisolated var currentUser: User? { mirror.user }

    /// Whether the store has been read, so ``currentSession`` `== nil` really means signed out.
    public nonisolated var isRestored: Bool { mirror.restored }

    /// Reads the stored session (once; later calls return what the client holds). Call it at launch: an
    /// offline launch restores the session too, as only the server refusing the refresh token ends it.
    ///
    /// - Returns: The session, or `nil` when none is stored.
    /// - Throws: ``GatehouseError/storage(_:)`` when the store cannot be read (the Keychain before the first
    ///   unlock after a reboot): the state is unknown, so do not show a signed-out screen; try again later.
    @discardableResult
    public func restore() async throws -> Session? { try loadedSession() }

    /// Whether a session is stored (no network; the session may still turn out to be revoked or expired).
    /// A store that cannot be read counts as signed out here; ``restore()`` tells the two apart.
    public var isSignedIn: Bool { (try? loadedSession()) != nil }

    private func activate(_ id: UUID) {
        do {
            hub.activate(id, with: AuthStateChange(event: .initialSession, session: try loadedSession()))
        } catch {
            let failure = (error as? GatehouseError).flatMap { if case .storage(let f) = $0 { f } else { nil } }
            hub.activate(id, with: AuthStateChange(event: .initialSession, session: nil, restoreFailure: failure))
        }
    }

    // MARK: Email and password

    /// Creates an account and has the server mail a confirmation code; it does not sign in.
    ///
    /// The answer is the same for an address that is already registered (its owner gets a notice instead),
    /// so follow it with the confirmation screen in every case.
    ///
    /// - Parameters:
    ///   - email: The address to register; the code goes there.
    ///   - password: The new password (8 characters with a digit by default; common ones are refused).
    ///   - fullName: An optional display name.
    /// - Returns: Where the code went, and whether the account is already confirmed.
    /// - Throws: ``GatehouseError``: `invalidRequest` (a bad email), `invalidPassword` (the policy; show the
    ///   message), `tooManyRequests` (the mail cool-down), or a transport failure.
    public func signUp(email: String, password: String, fullName: String? = nil) async throws -> SignUpResult {
        var body: [String: String] = ["email": email, "password": password]
        if let fullName { body["full_name"] = fullName }
        return try decode(SignUpResult.self, try await call("POST", "/auth/signup", body: body))
    }

    /// Confirms the address with the code from the sign-up mail; afterwards the user can sign in.
    ///
    /// - Parameters:
    ///   - email: The address the code went to.
    ///   - code: The 6-digit code (spaces and a dash are ignored by the server).
    /// - Throws: ``GatehouseError``: `codeMismatch` (a wrong code; a code survives 5 wrong guesses),
    ///   `codeExpired` (ask for a new one with ``resendCode(email:)``), `tooManyRequests`, or a transport failure.
    public func confirmSignUp(email: String, code: String) async throws {
        _ = try await call("POST", "/auth/confirm", body: ["email": email, "code": code])
    }

    @discardableResult
    /// Mails a new confirmation code (at most one code mail per address per minute).
    ///
    /// - Parameter email: The address that signed up; unknown addresses get the same answer.
    /// - Returns: Where the code went (masked).
    /// - Throws: ``GatehouseError``: `tooManyRequests` during the cool-down (wait ``ServerError/retryAfter``),
    ///   `invalidRequest`, or a transport failure.
    public func resendCode(email: String) async throws -> CodeDelivery {
        try decode(DeliveryEnvelope.self, try await call("POST", "/auth/resend-code", body: ["email": email])).codeDelivery
    }

    @discardableResult
    /// Signs in with email and password, stores the session and emits ``AuthEvent/signedIn``.
    ///
    /// - Parameters:
    ///   - email: The account's address.
    ///   - password: The account's password.
    /// - Returns: The new session (already stored; there is nothing to do with it).
    /// - Throws: ``GatehouseError``: `invalidCredentials` (wrong email or password, the same for unknown
    ///   addresses), `userNotConfirmed` (the password was right but the code was never confirmed: show the
    ///   confirmation screen), `mfaRequired` (the account has an authenticator app: ask for its code and call
    ///   ``completeSecondFactor(mfaToken:code:)`` with the error's ``GatehouseError/mfaToken``), `tooManyRequests`
    ///   (failed attempts are throttled), or a transport failure.
    public func signIn(email: String, password: String) async throws -> Session {
        try await signingIn(.password, "/auth/signin", body: ["email": email, "password": password]).session
    }

    @discardableResult
    /// Mails a password reset code; shares the one-mail-per-minute cool-down with ``resendCode(email:)``.
    ///
    /// - Parameter email: The account's address; unknown addresses get the same answer.
    /// - Returns: Where the code went (masked).
    /// - Throws: ``GatehouseError``: `tooManyRequests`, `invalidRequest`, or a transport failure.
    public func forgotPassword(email: String) async throws -> CodeDelivery {
        try decode(DeliveryEnvelope.self, try await call("POST", "/auth/password/forgot", body: ["email": email])).codeDelivery
    }

    /// Sets a new password with the emailed code. Every session ends; sign in again afterwards.
    /// It also confirms an account that was never confirmed (the code proves the address).
    ///
    /// - Parameters:
    ///   - email: The address the reset code went to.
    ///   - code: The 6-digit code from the mail.
    ///   - newPassword: The new password (the same policy as sign-up).
    /// - Throws: ``GatehouseError``: `codeMismatch`, `codeExpired` (ask for a new code), `invalidPassword`
    ///   (show the message), `tooManyRequests`, or a transport failure.
    public func resetPassword(email: String, code: String, newPassword: String) async throws {
        _ = try await call("POST", "/auth/password/reset", body: ["email": email, "code": code, "new_password": newPassword])
    }

    /// Changes the signed-in user's password; their other sessions end, this one stays.
    ///
    /// - Parameters:
    ///   - current: The password now in use.
    ///   - new: The new password (the same policy as sign-up).
    /// - Throws: ``GatehouseError``: `invalidCredentials` (a wrong `current`; it counts as a failed sign-in),
    ///   `invalidPassword`, `tooManyRequests`, `notSignedIn`, `invalidGrant` when the session has ended, or a
    ///   transport failure.
    public func changePassword(current: String, new: String) async throws {
        _ = try await authorized("POST", "/auth/password/change", body: ["current_password": current, "new_password": new])
    }

    // MARK: Apple and Google

    /// Exchanges Sign in with Apple's result for a session. `rawNonce` is the ``Nonce/raw`` whose hash
    /// went into the Apple request; `email` and `fullName` come only on the first authorisation.
    ///
    /// - Parameters:
    ///   - identityToken: `ASAuthorizationAppleIDCredential.identityToken`, as a string.
    ///   - authorizationCode: `authorizationCode`, as a string; with it the server can revoke the user's
    ///     Apple tokens when the account is deleted, as the App Store requires.
    ///   - rawNonce: The ``Nonce/raw`` of the nonce whose ``Nonce/hashed`` went to Apple, or `nil` if none did.
    ///   - email: The address Apple shared, a hint only (the address comes from the verified token).
    ///   - fullName: The name Apple shared; it becomes the display name when none is known.
    /// - Returns: The stored session and whether the account was just created.
    /// - Throws: ``GatehouseError``: `invalidToken` (the token failed verification, e.g. a nonce mismatch),
    ///   `providerDisabled` (Apple is not configured on the server), `conflict` (with Cognito, the address
    ///   belongs to a password account: sign in with the password), `mfaRequired` (finish with
    ///   ``completeSecondFactor(mfaToken:code:)``), `upstreamUnavailable`, or a transport failure.
    @discardableResult
    public func signInWithApple(
        identityToken: String,
        authorizationCode: String?,
        rawNonce: String?,
        email: String? = nil,
        fullName: String? = nil
    ) async throws -> SignInResult {
        var body = ["identity_token": identityToken]
        body["authorization_code"] = authorizationCode
        body["nonce"] = rawNonce
        body["email"] = email
        body["full_name"] = fullName
        return try await signingIn(.apple, "/auth/apple", body: body)
    }

    /// Exchanges a Google ID token (from GoogleSignIn or Credential Manager) for a session.
    ///
    /// - Parameters:
    ///   - idToken: The Google ID token.
    ///   - rawNonce: The ``Nonce/raw`` of the nonce whose ``Nonce/hashed`` went to Google, or `nil` if none did.
    ///   - fullName: A display name to use when none is known.
    /// - Returns: The stored session and whether the account was just created.
    /// - Throws: ``GatehouseError``: `invalidToken`, `providerDisabled`, `conflict` (see
    ///   ``signInWithApple(identityToken:authorizationCode:rawNonce:email:fullName:)``), `mfaRequired`, `upstreamUnavailable`,
    ///   or a transport failure.
    @discardableResult
    public func signInWithGoogle(idToken: String, rawNonce: String?, fullName: String? = nil) async throws -> SignInResult {
        var body = ["id_token": idToken]
        body["nonce"] = rawNonce
        body["full_name"] = fullName
        return try await signingIn(.google, "/auth/google", body: body)
    }

    /// The URL that starts Sign in with Apple in a browser (web and Android-style flows); open it in
    /// an `ASWebAuthenticationSession` with callback scheme = the server's app scheme. The flow must
    /// finish in the browser session that opened this URL (the server binds it with a cookie).
    ///
    /// - Parameters:
    ///   - pkce: A fresh pair; keep its ``PKCE/verifier`` for ``redeemHandoff(code:codeVerifier:)``.
    ///   - nonce: A nonce to bind into Apple's token; the server makes one when `nil`.
    /// - Returns: `GET /auth/apple/authorize` with the PKCE challenge (and the raw nonce) in the query.
    public nonisolated func appleAuthorizeURL(pkce: PKCE, nonce: Nonce? = nil) -> URL {
        var components = URLComponents(url: configuration.baseURL.appendingPathComponent("auth/apple/authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "code_challenge", value: pkce.challenge), URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        if let nonce { components.queryItems?.append(URLQueryItem(name: "nonce", value: nonce.raw)) }
        return components.url!
    }

    /// Redeems the hand-off code from `<scheme>://apple-callback?code=…` with the PKCE verifier.
    /// The code is single use and lives 60 seconds; a wrong verifier spends it.
    ///
    /// - Parameters:
    ///   - code: The `code` query item of the callback URL (an `error` item instead means the flow failed).
    ///   - codeVerifier: The ``PKCE/verifier`` of the pair given to ``appleAuthorizeURL(pkce:nonce:)``.
    /// - Returns: The stored session and whether the account was just created.
    /// - Throws: ``GatehouseError``: `invalidGrant` (the code is unknown, used, expired, or the verifier is
    ///   wrong: start the flow again), `invalidRequest`, or a transport failure.
    @discardableResult
    public func redeemHandoff(code: String, codeVerifier: String) async throws -> SignInResult {
        try await signingIn(.apple, "/auth/handoff", body: ["code": code, "code_verifier": codeVerifier])
    }

    // MARK: Profile

    /// The signed-in user's profile (`GET /me`); the server creates it on the first call.
    ///
    /// - Returns: The profile.
    /// - Throws: ``GatehouseError``: `notSignedIn`, `invalidGrant` (the session ended: sign in again),
    ///   `unauthorized` (the token was refused even after a refresh: the session ended), or a transport failure.
    public func profile() async throws -> Profile {
        try decode(Profile.self, try await authorized("GET", "/me", body: nil))
    }

    /// Sets the display name (`nil` clears it).
    ///
    /// - Parameter fullName: The new name (at most 256 characters), or `nil` to clear it.
    /// - Returns: The updated profile.
    /// - Throws: ``GatehouseError``: `invalidRequest` (too long), `notSignedIn`, `invalidGrant`, or a
    ///   transport failure.
    public func updateProfile(fullName: String?) async throws -> Profile {
        let body = try JSONSerialization.data(withJSONObject: ["full_name": fullName.map { $0 as Any } ?? NSNull()])
        return try decode(Profile.self, try await authorized("PATCH", "/me", rawBody: body))
    }

    /// Deletes the account and everything of it (the App Store requires offering this); the session is
    /// cleared and ``AuthEvent/userDeleted`` emitted. Ask the user to confirm first: it cannot be undone.
    ///
    /// - Throws: ``GatehouseError``: `notSignedIn`, a transport failure (nothing was deleted; the user is still
    ///   signed in), or `invalidGrant` (the session had already ended and is cleared: sign in, then delete).
    public func deleteAccount() async throws {
        _ = try await authorized("DELETE", "/me", body: nil)
        if let failure = await exclusively({ await self.end(.userDeleted) }) { throw GatehouseError.storage(failure) }
    }
}
