import Logging

/// Sign in with Google and Apple, native (`POST /auth/google`, `POST /auth/apple`) and Apple's
/// web flow (authorize, callback, hand-off): verify the provider's ID token, then let the identity
/// provider find or create the user. Tokens that fail verification count against the client's
/// address, so nobody can grind through forged tokens. Outcomes are counted under `google`, `apple`
/// and `handoff`; what a sign-in changed is published.
public struct SocialSignIn: Sendable {
    /// Verifies Google ID tokens.
    public let google: ProviderTokenVerifier
    /// Verifies Apple identity tokens.
    public let apple: ProviderTokenVerifier
    let strategy: any SocialStrategy
    let limiter: RateLimiter
    let events: any AuthEventObserver
    let domainEvents: DomainEvents
    let appleWeb: AppleWebFlow

    /// Creates the use case.
    /// - Parameters:
    ///   - google: Verifies Google ID tokens.
    ///   - apple: Verifies Apple identity tokens.
    ///   - strategy: The active provider's social strategy.
    ///   - limiter: Counts failed verifications per client.
    ///   - events: Where sign-in outcomes are counted.
    ///   - domainEvents: Where what a sign-in changed is published.
    ///   - appleWeb: Apple's web flow (its state, callback page target and hand-off codes).
    public init(
        google: ProviderTokenVerifier,
        apple: ProviderTokenVerifier,
        strategy: any SocialStrategy,
        limiter: RateLimiter,
        events: any AuthEventObserver,
        domainEvents: DomainEvents,
        appleWeb: AppleWebFlow
    ) {
        self.google = google
        self.apple = apple
        self.strategy = strategy
        self.limiter = limiter
        self.events = events
        self.domainEvents = domainEvents
        self.appleWeb = appleWeb
    }

    /// Exchanges a Google ID token for a session.
    /// - Parameters:
    ///   - idToken: Google's ID token.
    ///   - nonce: The raw nonce the token must carry (hashed), if the client used one.
    ///   - fullName: A display-name hint.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The session's tokens, `isNewUser` set.
    /// - Throws: `invalid_token`, `provider_disabled`, `conflict`, `too_many_requests`.
    public func signInWithGoogle(idToken: String, nonce: String?, fullName: String?, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("google") {
            let identity = try await verify(idToken, nonce: nonce, with: google, client: client)
            return try await signIn(ProviderSignIn(identity: identity, nonce: nonce, fullNameHint: fullName), client: client, logger: logger)
        }
    }

    /// The hosted UI's Google sign-in by redirect: the ID token Gatehouse obtained from Google's token
    /// endpoint, verified as on `POST /auth/google` but for the web client's audience alone.
    /// - Parameters:
    ///   - idToken: Google's ID token.
    ///   - nonce: The raw nonce Gatehouse sent (hashed) to Google.
    ///   - audience: The web client's id, the only audience accepted.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The session's tokens.
    /// - Throws: As ``signInWithGoogle(idToken:nonce:fullName:client:logger:)``.
    public func signInWithGoogleWeb(idToken: String, nonce: String, audience: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("google") {
            let identity = try await verify(idToken, nonce: nonce, with: google.accepting(onlyAudience: audience), client: client)
            return try await signIn(ProviderSignIn(identity: identity, nonce: nonce, fullNameHint: nil), client: client, logger: logger)
        }
    }

    /// Exchanges an Apple identity token (and its authorization code, kept for revocation) for a session.
    /// - Parameters:
    ///   - identityToken: Apple's identity token.
    ///   - authorizationCode: Apple's one-time code, if sent.
    ///   - nonce: The raw nonce the token must carry (hashed), if any.
    ///   - fullName: A display-name hint (Apple sends the name only once).
    ///   - redirectURI: The redirect URI the code was issued for (web flow only).
    ///   - expectedSubject: The user identifier the app says Apple gave it (`ASAuthorizationAppleIDCredential.user`,
    ///     the seed 003 API's `user_identifier`); when sent, the token's `sub` must equal it or the token is refused.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The session's tokens, `isNewUser` set.
    /// - Throws: `invalid_token`, `provider_disabled`, `conflict`, `too_many_requests`.
    public func signInWithApple(
        identityToken: String,
        authorizationCode: String?,
        nonce: String?,
        fullName: String?,
        redirectURI: String? = nil,
        expectedSubject: String? = nil,
        client: ClientInfo,
        logger: Logger
    ) async throws -> AuthTokens {
        try await events.observing("apple") {
            let identity = try await verify(identityToken, nonce: nonce, with: apple, client: client)
            if let expectedSubject, expectedSubject != identity.subject {
                try await recordFailedVerification(client: client)
                throw GatehouseError.invalidToken(cause: "user_identifier differs from the token's sub")
            }
            let request = ProviderSignIn(
                identity: identity,
                nonce: nonce,
                fullNameHint: fullName,
                appleAuthorizationCode: authorizationCode,
                appleRedirectURI: redirectURI
            )
            return try await signIn(request, client: client, logger: logger)
        }
    }

    /// The provider's part, with the display-name hint checked (a bad hint is dropped, not refused)
    /// and an Apple authorization code checked against the token's `c_hash`: a code issued to someone
    /// else, sent with your own token, is refused before anything is exchanged.
    func signIn(_ request: ProviderSignIn, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        if let code = request.appleAuthorizationCode, !request.identity.matchesAuthorizationCode(code) {
            try await recordFailedVerification(client: client)
            throw GatehouseError.invalidToken(cause: "apple: the authorization code was not issued with this identity token (c_hash)")
        }
        var request = request
        request.fullNameHint = (try? InputRules.displayName(request.fullNameHint)) ?? nil
        let outcome = try await strategy.signInWithProvider(request, client: client, logger: logger)
        domainEvents.publish(outcome.events)
        return outcome.tokens
    }

    /// Verifies, counting failures per client address. A client past its limit gets 429 for further
    /// failed tokens. The check runs only when verification fails: that costs microseconds (no
    /// network: keys are cached), and a valid token cannot be forged, so the success path needs no
    /// database read.
    /// - Parameters:
    ///   - token: The provider's ID token.
    ///   - nonce: The raw nonce it must carry, if any.
    ///   - verifier: Google's or Apple's verifier.
    ///   - client: Who asks.
    /// - Returns: The verified identity.
    /// - Throws: `invalid_token`, `provider_disabled`, `too_many_requests`.
    public func verify(_ token: String, nonce: String?, with verifier: ProviderTokenVerifier, client: ClientInfo) async throws -> VerifiedIdentity {
        do {
            return try await verifier.verify(token, rawNonce: nonce)
        } catch let error as GatehouseError where error.code == .invalidToken {
            try await recordFailedVerification(client: client)
            throw error
        }
    }

    /// Counts a refused provider token against the client's address (429 once past the limit).
    func recordFailedVerification(client: ClientInfo) async throws {
        let bucket = limiter.bucket(limiter.settings.exchangePerClient, client: client)
        try await limiter.ensureAllowed([bucket])
        try await limiter.recordFailure([bucket])
    }
}
