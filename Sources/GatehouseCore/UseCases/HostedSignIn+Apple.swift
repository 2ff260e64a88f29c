import Foundation
import GatehouseInfrastructure
import Logging

/// Sign in with Apple by redirect (`identity_provider=SignInWithApple`), as Cognito does it: Apple posts
/// its answer (`form_post`) to `/oauth2/idpresponse`, which is registered as a Return URL of the
/// Services ID. The state is the hosted UI's own (the app's request sealed inside, bound to the
/// browser), the identity token is verified as on the Apple web hand-off (the Services ID the only
/// audience, the state's nonce), the name Apple posts once is kept, and the app's authorization
/// request is finished instead of the custom-scheme hand-off.
extension HostedSignIn {
    /// Whether `identity_provider=SignInWithApple` is offered (`GATEHOUSE_APPLE_SERVICES_ID` and Apple configured).
    public var offersApple: Bool { social.appleWeb.settings != nil && social.appleWeb.appleEnabled && appleRedirectURI != nil }

    /// Starts a Sign in with Apple for `request`.
    /// - Parameter request: The app's checked request.
    /// - Returns: Apple's authorization URL and the binding cookie's secret.
    /// - Throws: ``AuthorizationRefusal`` (`unauthorized_client` when Apple's web flow is not configured).
    public func startApple(_ request: AuthorizationRequest) throws(AuthorizationRefusal) -> FederationStart {
        guard offersApple, let settings = social.appleWeb.settings, let appleRedirectURI else {
            throw request.refusal("unauthorized_client", "Sign in with Apple is not configured on this server (GATEHOUSE_APPLE_SERVICES_ID).")
        }
        guard let (sealed, binding, nonce) = try? newState(.apple, for: request) else {
            throw request.refusal("server_error", "The sign-in could not be started.")
        }
        let items: [(name: String, value: String)] = [
            ("client_id", settings.servicesID), ("redirect_uri", appleRedirectURI), ("response_type", "code id_token"),
            ("response_mode", "form_post"), ("scope", "name email"), ("state", sealed), ("nonce", Digests.sha256Hex(nonce)),
        ]
        return FederationStart(
            url: RedirectURL.make(settings.appleAPIBase + "/auth/authorize", adding: items),
            browserBinding: binding,
            lifetime: Self.federationLifetime
        )
    }

    /// Finishes a Sign in with Apple from Apple's form post to `/oauth2/idpresponse`. The state's use is
    /// recorded only after the identity token verified, so a post without a valid token writes nothing.
    /// - Parameters:
    ///   - form: Apple's fields: `state`, `id_token`, `code`, `user` (the first time), or `error`.
    ///   - browserBinding: The binding cookie's value, if the browser sent it.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The app's request and the tokens, the second step to ask for, or the refusal to show or send back.
    public func finishApple(
        form: [String: String],
        browserBinding: String?,
        client: ClientInfo,
        logger: Logger
    ) async -> FederationOutcome {
        let now = clock.now()
        let raw = form["state"] ?? ""
        let request: AuthorizationRequest
        let state: FederationState
        switch checkState(raw, provider: .apple, browserBinding: browserBinding, at: now, logger: logger) {
        case .success(let checked): (state, request) = checked
        case .failure(let refusal): return .refused(refusal)
        }
        if let error = form["error"] {
            let code = AppleWebFlow.appleErrorCode(error)
            return .refused(
                request.refusal(code == "user_cancelled_authorize" ? "access_denied" : "server_error", "Apple did not sign the user in (\(code)).")
            )
        }
        guard let idToken = form["id_token"], !idToken.isEmpty, let settings = social.appleWeb.settings, let appleRedirectURI else {
            return .refused(request.refusal("invalid_request", "Apple's answer carried no identity token."))
        }
        do {
            let identity = try await social.verifyAppleWeb(idToken, nonce: state.nonce, servicesID: settings.servicesID, client: client)
            guard try await spendState(raw, state, request: request, at: now, logger: logger) else {
                return .refused(.federationState("This sign-in link was already used. Start again from the app."))
            }
            let tokens = try await social.signInWithAppleWeb(
                identity,
                authorizationCode: form["code"],
                nonce: state.nonce,
                fullName: AppleWebFlow.parseUser(form["user"]).name,
                redirectURI: appleRedirectURI,
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
}
