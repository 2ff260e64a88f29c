import Foundation
import GatehouseInfrastructure
import Logging

/// The hosted UI's authorization server (Cognito's `/oauth2/*` endpoints and its sign-in pages): checks
/// authorization requests, keeps a browser's hosted session, issues and redeems authorization codes.
/// Signing in itself goes through the same use cases as the API (``PasswordAuthentication``,
/// ``SocialSignIn``), so the pages keep the same throttles, enumeration rules and wording.
public struct HostedSignIn: Sendable {
    /// The registered URIs and lifetimes.
    public let settings: HostedUISettings
    let client: AppClient
    let strategy: any HostedSessionStrategy
    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource
    let domainEvents: DomainEvents
    let social: SocialSignIn
    let google: GoogleWebSettings?
    let googleExchange: (any GoogleCodeExchange)?
    /// Our `/oauth2/idpresponse`, where Apple posts its answer; `nil` when Apple by redirect is not offered.
    let appleRedirectURI: String?

    /// Creates the use case.
    /// - Parameters:
    ///   - settings: The registered URIs and lifetimes.
    ///   - client: The app client (its id is settled at start-up).
    ///   - strategy: The embedded pool.
    ///   - store: Where a code's single use is recorded.
    ///   - box: Seals codes, hosted sessions and form bindings.
    ///   - clock: The time source.
    ///   - random: Makes code ids and form secrets.
    ///   - domainEvents: Where ended sessions are published.
    ///   - social: Verifies Google's and Apple's tokens and signs in with them.
    ///   - google: Google's web client, `nil` when `identity_provider=Google` is not offered.
    ///   - googleExchange: Google's token endpoint.
    ///   - appleRedirectURI: Our `/oauth2/idpresponse`, registered as a Return URL of the Services ID.
    public init(
        settings: HostedUISettings,
        client: AppClient,
        strategy: any HostedSessionStrategy,
        store: any GatehouseStore,
        box: SecretBox,
        clock: any TimeSource,
        random: any RandomSource,
        domainEvents: DomainEvents,
        social: SocialSignIn,
        google: GoogleWebSettings? = nil,
        googleExchange: (any GoogleCodeExchange)? = nil,
        appleRedirectURI: String? = nil
    ) {
        self.settings = settings
        self.client = client
        self.strategy = strategy
        self.store = store
        self.box = box
        self.clock = clock
        self.random = random
        self.domainEvents = domainEvents
        self.social = social
        self.google = google
        self.googleExchange = googleExchange
        self.appleRedirectURI = appleRedirectURI
    }

    /// The app client's id.
    public var clientID: String { client.id }

    // MARK: requests

    /// Checks an authorization request's parameters.
    /// - Parameter items: The query or form parameters.
    /// - Returns: The checked request.
    /// - Throws: ``AuthorizationRefusal``.
    public func authorizationRequest(_ items: [(name: String, value: String)]) throws(AuthorizationRefusal) -> AuthorizationRequest {
        try AuthorizationRequest.parse(items, clientID: client.id, callbackURLs: settings.callbackURLs)
    }

    // MARK: the hosted session

    /// The browser's hosted session, if its cookie is genuine, unexpired, and its pool session still active.
    /// - Parameter cookie: The cookie's value.
    /// - Returns: The session, or `nil`.
    /// - Throws: A store error.
    public func hostedSession(cookie: String?) async throws -> HostedSession? {
        guard let cookie, !cookie.isEmpty, let session = HostedSession.open(cookie, with: box), session.expiresAt > clock.now() else { return nil }
        return try await strategy.isSessionActive(id: session.sessionID) ? session : nil
    }

    /// Binds a browser to the session a sign-in just started.
    /// - Parameter tokens: The sign-in's tokens (their session id).
    /// - Returns: The hosted session and its sealed cookie value.
    /// - Throws: `internal_error` for tokens without a pool session.
    public func startHostedSession(_ tokens: AuthTokens) throws -> (session: HostedSession, cookie: String) {
        guard let id = tokens.sessionID else { throw GatehouseError.internalError(cause: "a sign-in without a pool session reached the hosted UI") }
        let session = HostedSession(sessionID: id, expiresAt: clock.now().addingTimeInterval(settings.sessionLifetime))
        return (session, try session.seal(with: box))
    }

    /// `/logout`: ends the session the cookie is bound to (and with it the tokens issued in it).
    /// - Parameters:
    ///   - cookie: The hosted session's cookie, if sent.
    ///   - logger: The request's logger.
    /// - Throws: A store error.
    public func endHostedSession(cookie: String?, logger: Logger) async throws {
        guard let cookie, let session = HostedSession.open(cookie, with: box) else { return }
        domainEvents.publish(try await strategy.endSession(id: session.sessionID, reason: .signOut, logger: logger))
    }

    /// Whether `uri` is a registered sign-out URI (exact match).
    /// - Parameter uri: The `logout_uri`.
    /// - Returns: `true` when `/logout` may redirect there.
    public func isRegisteredSignOutURI(_ uri: String) -> Bool {
        settings.signOutURLs.contains(uri)
    }

    // MARK: codes

    /// Finishes an authorization request for a signed-in browser: a code, and where to send the browser.
    /// - Parameters:
    ///   - request: The checked request.
    ///   - session: The browser's hosted session.
    /// - Returns: The redirect URI with `code` and `state`.
    /// - Throws: A sealing error.
    public func complete(_ request: AuthorizationRequest, session: HostedSession) throws -> String {
        let code = AuthorizationCode(
            sessionID: session.sessionID,
            redirectURI: request.redirectURI,
            codeChallenge: request.codeChallenge,
            nonce: request.nonce,
            scope: request.scopes.joined(separator: " "),
            expiresAt: clock.now().addingTimeInterval(settings.codeLifetime),
            id: random.token(bytes: 12)
        )
        var items: [(name: String, value: String)] = [("code", try code.seal(with: box))]
        if let state = request.state { items.append(("state", state)) }
        return RedirectURL.make(request.redirectURI, adding: items)
    }

    /// `grant_type=authorization_code`: redeems a code once, for the client, redirect URI and PKCE
    /// verifier it was issued for. A code presented a second time ends the session the first use
    /// issued tokens in. A request that fails a check does not spend the code.
    /// - Parameters:
    ///   - code: The code.
    ///   - clientID: The token request's `client_id`.
    ///   - redirectURI: The token request's `redirect_uri`.
    ///   - verifier: The PKCE `code_verifier`.
    ///   - logger: The request's logger.
    /// - Returns: ID, access and refresh tokens in the hosted session.
    /// - Throws: `unauthorized` (an unknown client), `invalid_request`, `invalid_grant`.
    public func redeem(code: String, clientID: String, redirectURI: String?, verifier: String?, logger: Logger) async throws -> AuthTokens {
        guard ConstantTime.equals(clientID, client.id) else {
            throw GatehouseError(.unauthorized, "The client id is not registered with this server.")
        }
        guard let verifier, !verifier.isEmpty else { throw GatehouseError.invalidRequest("'code_verifier' is required (PKCE).") }
        guard let redirectURI, !redirectURI.isEmpty else { throw GatehouseError.invalidRequest("'redirect_uri' is required.") }
        let refused = GatehouseError(.invalidGrant, "The authorization code is invalid, expired or already used.")
        let now = clock.now()
        guard let opened = AuthorizationCode.open(code, with: box) else { throw refused }
        guard opened.expiresAt > now else { throw refused }
        guard opened.redirectURI == redirectURI else {
            throw GatehouseError(.invalidGrant, "The redirect URI differs from the one the code was issued for.")
        }
        guard PKCE.verifies(verifier, challenge: opened.codeChallenge) else {
            logger.warning("authorization code presented with the wrong PKCE verifier")
            throw GatehouseError(.invalidGrant, "The code verifier does not match the code challenge.")
        }
        let hash = Digests.sha256Base64URL(code)
        let first = try await store.write { tx in
            try await tx.recordAuthorizationStateUse(hash: hash, codeChallenge: opened.codeChallenge, expiresAt: opened.expiresAt, at: now)
        }
        guard first else {
            logger.warning(
                "authorization code used twice; ending the session it issued tokens in",
                metadata: ["session.id": .string(opened.sessionID)]
            )
            domainEvents.publish(try await strategy.endSession(id: opened.sessionID, reason: .authorizationCodeReuse, logger: logger))
            throw refused
        }
        return try await strategy.continueSession(id: opened.sessionID, nonce: opened.nonce, logger: logger)
    }

    // MARK: forms

    /// A fresh secret for the browser's form-binding cookie.
    /// - Returns: The cookie value.
    public func newFormBinding() -> String { random.token(bytes: 24) }

    /// The CSRF token a page's forms carry for the browser holding `binding` in its cookie.
    /// - Parameter binding: The form-binding cookie's value.
    /// - Returns: The token.
    public func formToken(binding: String) -> String { box.keyedHash("hosted-form", binding) }

    /// Whether a posted form's CSRF token belongs to the browser's form-binding cookie.
    /// - Parameters:
    ///   - token: The posted `csrf` field.
    ///   - binding: The form-binding cookie's value.
    /// - Returns: `true` when they belong together.
    public func checkFormToken(_ token: String?, binding: String?) -> Bool {
        guard let token, let binding, !binding.isEmpty, binding.utf8.count <= 256 else { return false }
        return ConstantTime.equals(formToken(binding: binding), token)
    }
}
