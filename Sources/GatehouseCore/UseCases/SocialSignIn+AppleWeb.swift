import Logging

/// Apple's web and Android flow reaches the core through the same use case as the native exchange:
/// the callback verifies with the same verifier (narrowed to the Services ID) and signs in through
/// the same provider step.
extension SocialSignIn {
    /// Starts the web flow: Apple's authorize URL with a sealed single-use state.
    /// - Parameters:
    ///   - codeChallenge: The app's PKCE S256 challenge.
    ///   - nonce: The app's nonce, if any.
    ///   - logger: The request's logger.
    /// - Returns: Where to send the browser and the browser-binding cookie to set.
    /// - Throws: `provider_disabled`, `invalid_request`.
    public func authorizeAppleWeb(codeChallenge: String, nonce: String?, logger: Logger) async throws -> AppleWebFlow.Authorization {
        try await appleWeb.authorize(codeChallenge: codeChallenge, nonce: nonce, logger: logger)
    }

    /// Handles Apple's form post; never throws (every failure becomes `?error=` on the app's URL). The
    /// identity token is verified for the Services ID only, failures count against the client as on
    /// the native exchange, and each client's recorded callbacks are capped
    /// (``RateLimitSettings/appleCallbackPerClient``) before anything is written.
    /// - Parameters:
    ///   - form: Apple's form fields.
    ///   - browserBinding: The binding cookie's value, if the browser sent it.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The app-scheme URL to send the browser to.
    public func appleWebCallback(form: [String: String], browserBinding: String?, client: ClientInfo, logger: Logger) async -> String {
        await appleWeb.callback(
            form: form,
            browserBinding: browserBinding,
            client: client,
            logger: logger,
            verify: { idToken, nonce, servicesID in
                try await verifyAppleWeb(idToken, nonce: nonce, servicesID: servicesID, client: client)
            },
            signIn: { identity, code, nonce, name, redirect in
                try await signInWithAppleWeb(
                    identity,
                    authorizationCode: code,
                    nonce: nonce,
                    fullName: name,
                    redirectURI: redirect,
                    client: client,
                    logger: logger
                )
            }
        )
    }

    /// Verifies an identity token from Apple's web flow for the Services ID alone and admits the client
    /// under its callback cap (``RateLimitSettings/appleCallbackPerClient``); failures count as on the
    /// native exchange. The hosted UI's Apple sign-in verifies with it.
    func verifyAppleWeb(_ idToken: String, nonce: String, servicesID: String, client: ClientInfo) async throws -> VerifiedIdentity {
        let identity = try await verify(idToken, nonce: nonce, with: apple.accepting(onlyAudience: servicesID), client: client)
        try await limiter.consume([limiter.bucket(limiter.settings.appleCallbackPerClient, client: client)])
        return identity
    }

    /// Signs in with an identity ``verifyAppleWeb(_:nonce:servicesID:client:)`` accepted, counted under `apple`.
    func signInWithAppleWeb(
        _ identity: VerifiedIdentity,
        authorizationCode: String?,
        nonce: String?,
        fullName: String?,
        redirectURI: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> AuthTokens {
        try await events.observing("apple") {
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

    /// The app-scheme URL carrying `items` (for answers the callback page gives without the flow).
    /// - Parameter items: The query items.
    /// - Returns: `<scheme>://apple-callback?…`.
    public func appleWebTarget(_ items: [String: String]) -> String {
        appleWeb.target(items)
    }

    /// Redeems a hand-off code with the PKCE verifier (counted under `handoff`).
    /// - Parameters:
    ///   - code: The hand-off code.
    ///   - verifier: The PKCE code verifier.
    ///   - logger: The request's logger.
    /// - Returns: The tokens sealed at the callback.
    /// - Throws: `invalid_grant`.
    public func redeemHandoff(code: String, verifier: String, logger: Logger) async throws -> AuthTokens {
        try await events.observing("handoff") {
            try await appleWeb.redeem(code: code, verifier: verifier, logger: logger)
        }
    }
}
