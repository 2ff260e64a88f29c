import Foundation
import GatehouseInfrastructure
import Logging

/// Signing in at Google by redirect, as Cognito's `/oauth2/idpresponse` does: Gatehouse sends the
/// browser to Google with its own state and nonce (bound to the browser by a cookie), exchanges the
/// code Google sends back server-side, verifies the ID token exactly as `POST /auth/google` does
/// (signature, issuer, audience = the web client, expiry, nonce), signs in through ``SocialSignIn``
/// (the same linking rules), and then finishes the app's authorization request.
extension HostedSignIn {
    /// Where to send the browser to sign in at a provider, and the binding cookie to set.
    public struct FederationStart: Sendable {
        /// The provider's authorization URL.
        public var url: String
        /// The browser-binding secret for the cookie; the state holds its hash.
        public var browserBinding: String
        /// Seconds the state and the cookie are good for.
        public var lifetime: Int
    }

    /// Seconds a federation state is accepted: 10 minutes.
    static let federationLifetime = 600

    /// Whether `identity_provider=Google` is offered.
    public var offersGoogle: Bool { google != nil && googleExchange != nil && social.google.isEnabled }

    /// Starts a Google sign-in for `request`.
    /// - Parameter request: The app's checked request.
    /// - Returns: Google's authorization URL and the binding cookie's secret.
    /// - Throws: ``AuthorizationRefusal`` (`unauthorized_client` when Google is not configured).
    public func startGoogle(_ request: AuthorizationRequest) throws(AuthorizationRefusal) -> FederationStart {
        guard offersGoogle, let google else {
            throw request.refusal("unauthorized_client", "Google is not configured on this server (GATEHOUSE_GOOGLE_WEB_CLIENT_ID).")
        }
        guard let (sealed, binding, nonce) = try? newState(.google, for: request) else {
            throw request.refusal("server_error", "The sign-in could not be started.")
        }
        var items: [(name: String, value: String)] = [
            ("client_id", google.clientID), ("redirect_uri", google.redirectURI), ("response_type", "code"),
            ("scope", "openid email profile"), ("state", sealed), ("nonce", Digests.sha256Hex(nonce)),
        ]
        if let hint = request.loginHint { items.append(("login_hint", hint)) }
        if request.prompt == .login { items.append(("prompt", "login")) }
        return FederationStart(
            url: RedirectURL.make(google.authorizationURL, adding: items),
            browserBinding: binding,
            lifetime: Self.federationLifetime
        )
    }

    /// Finishes a Google sign-in from `/oauth2/idpresponse`.
    /// - Parameters:
    ///   - query: Google's parameters: `code` and `state`, or `error` and `state`.
    ///   - browserBinding: The binding cookie's value, if the browser sent it.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The app's request and the tokens, the second step to ask for, or the refusal to show or send back.
    public func finishGoogle(
        query: [String: String],
        browserBinding: String?,
        client: ClientInfo,
        logger: Logger
    ) async -> FederationOutcome {
        let now = clock.now()
        let raw = query["state"] ?? ""
        let request: AuthorizationRequest
        let state: FederationState
        switch checkState(raw, provider: .google, browserBinding: browserBinding, at: now, logger: logger) {
        case .success(let checked): (state, request) = checked
        case .failure(let refusal): return .refused(refusal)
        }
        if let error = query["error"] {
            let code = error == "access_denied" ? "access_denied" : "server_error"
            return .refused(request.refusal(code, "Google did not sign the user in (\(String(error.prefix(64))))."))
        }
        guard let code = query["code"], !code.isEmpty, code.utf8.count <= 2048, let google, let googleExchange else {
            return .refused(request.refusal("invalid_request", "Google's answer carried no code."))
        }
        do {
            guard try await spendState(raw, state, request: request, at: now, logger: logger) else {
                return .refused(.federationState("This sign-in link was already used. Start again from the app."))
            }
            let idToken = try await googleExchange.exchange(code: code, redirectURI: google.redirectURI)
            let tokens = try await social.signInWithGoogleWeb(
                idToken: idToken,
                nonce: state.nonce,
                audience: google.clientID,
                client: client,
                logger: logger
            )
            return .signedIn(request, tokens)
        } catch let error as GatehouseError where error.code == .mfaRequired {
            guard let token = error.mfaToken else { return .refused(Self.refusal(error, for: request, logger: logger)) }
            return .secondFactor(request, mfaToken: token)
        } catch {
            return .refused(Self.refusal(error, for: request, logger: logger))
        }
    }

    /// A sealed state for `request` at `provider`: the state, the browser-binding secret, the raw nonce.
    func newState(_ provider: AuthorizationRequest.IdentityProvider, for request: AuthorizationRequest) throws -> (String, String, String) {
        let nonce = random.token(bytes: 24)
        let binding = random.token(bytes: 32)
        let state = FederationState(
            provider: provider,
            request: request.queryItems,
            nonce: nonce,
            bindingHash: FederationState.bindingHash(of: binding),
            expiresAt: clock.now().addingTimeInterval(TimeInterval(Self.federationLifetime))
        )
        return (try state.seal(with: box), binding, nonce)
    }

    /// Opens a returned state and checks its provider, expiry and browser binding (constant time), then
    /// the app's request inside it. Writes nothing: ``spendState(_:_:request:at:logger:)`` does, once the
    /// provider's answer is good.
    func checkState(
        _ raw: String,
        provider: AuthorizationRequest.IdentityProvider,
        browserBinding: String?,
        at now: Date,
        logger: Logger
    ) -> Result<(FederationState, AuthorizationRequest), AuthorizationRefusal> {
        guard let state = FederationState.open(raw, with: box), state.provider == provider else {
            logger.info("provider answer refused: unreadable state", metadata: ["provider": .string(provider.rawValue)])
            return .failure(.federationState("This sign-in link is not valid. Start again from the app."))
        }
        guard state.expiresAt > now else { return .failure(.federationState("This sign-in took too long. Start again from the app.")) }
        guard let browserBinding, browserBinding.utf8.count <= 256,
            ConstantTime.equals(FederationState.bindingHash(of: browserBinding), state.bindingHash)
        else {
            logger.info("provider answer refused: the state belongs to another browser", metadata: ["provider": .string(provider.rawValue)])
            return .failure(.federationState("This sign-in was started in another browser. Start again from the app."))
        }
        do {
            return .success((state, try authorizationRequest(state.request)))
        } catch {
            return .failure(error)
        }
    }

    /// Records a checked state's use; `false` when it was used before.
    func spendState(_ raw: String, _ state: FederationState, request: AuthorizationRequest, at now: Date, logger: Logger) async throws -> Bool {
        let first = try await store.write { tx in
            try await tx.recordAuthorizationStateUse(
                hash: Digests.sha256Base64URL(raw),
                codeChallenge: request.codeChallenge,
                expiresAt: state.expiresAt,
                at: now
            )
        }
        if !first { logger.info("provider answer refused: the state was used before", metadata: ["provider": .string(state.provider.rawValue)]) }
        return first
    }

    /// A failed sign-in at a provider as the refusal sent back to the app.
    static func refusal(_ error: any Error, for request: AuthorizationRequest, logger: Logger) -> AuthorizationRefusal {
        guard let error = error as? GatehouseError else {
            logger.error("provider sign-in failed", metadata: ["error": .string("\(error)")])
            return request.refusal("server_error", "Something went wrong on our side.")
        }
        logger.info("provider sign-in refused", metadata: ["error.code": .string(error.code.rawValue), "error.cause": .string(error.cause ?? "-")])
        return request.refusal(oauthCode(for: error), error.message)
    }

    /// The RFC 6749 error a refused sign-in is sent back to the app as.
    static func oauthCode(for error: GatehouseError) -> String {
        switch error.code {
        case .tooManyRequests, .upstreamUnavailable, .unavailable: "temporarily_unavailable"
        case .internalError: "server_error"
        default: "access_denied"
        }
    }
}
