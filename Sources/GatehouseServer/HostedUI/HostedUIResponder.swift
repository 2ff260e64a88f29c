import GatehouseCore
import HTTPTypes
import Hummingbird

/// What the hosted UI's two controllers answer alike: redirects, refusals, the signed-in finish, and
/// the pages with their form binding.
struct HostedUIResponder: Sendable {
    let hosted: HostedSignIn
    let pages: HostedPages
    let cookies: HostedCookies

    /// A `302` to `location`, never cached.
    func redirect(_ location: String, cookies: [HTTPField] = []) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        headers.append(contentsOf: cookies)
        return Response(status: .found, headers: headers)
    }

    /// A refusal: an error page for an untrusted client, redirect URI or federation state; otherwise a
    /// redirect back to the app with `error`, `error_description` and `state`.
    func refusal(_ refusal: AuthorizationRefusal, cookies: [HTTPField] = []) -> Response {
        if let target = RedirectURL.make(for: refusal) { return redirect(target, cookies: cookies) }
        return pages.response(.message("Sign-in cannot continue", refusal.message), status: .badRequest, cookies: cookies)
    }

    /// The end of a sign-in on the pages or at a provider: the browser gets its hosted session and goes
    /// back to the app with a code.
    func signedIn(_ request: AuthorizationRequest, tokens: AuthTokens, cookies extra: [HTTPField] = []) throws -> Response {
        let (session, cookie) = try hosted.startHostedSession(tokens)
        let target = try hosted.complete(request, session: session)
        return redirect(target, cookies: extra + [cookies.set(.session, cookie, maxAge: Int(hosted.settings.sessionLifetime))])
    }

    /// The end of a sign-in at Google or Apple: back to the app, the second-step page, or the refusal.
    func finish(_ outcome: FederationOutcome, request: Request, cookies extra: [HTTPField]) throws -> Response {
        switch outcome {
        case .signedIn(let authorization, let tokens):
            return try signedIn(authorization, tokens: tokens, cookies: extra)
        case .secondFactor(let authorization, let mfaToken):
            var page = HostedPage(.mfa, title: "Enter your code")
            page.notice = GatehouseError.mfaRequired(token: mfaToken).message
            page.mfaToken = mfaToken
            var response = self.page(page, for: authorization, request: request)
            response.headers.append(contentsOf: extra)
            return response
        case .refused(let refusal):
            return self.refusal(refusal, cookies: extra)
        }
    }

    /// The form binding of this browser (the cookie's secret, or a new one), and the cookie to set:
    /// set again on every page, so a form shown is good for the whole form lifetime.
    func formBinding(_ request: Request) -> (binding: String, cookie: HTTPField) {
        let existing = cookies.value(.form, in: request).flatMap { $0.utf8.count <= 256 ? $0 : nil }
        let binding = existing ?? hosted.newFormBinding()
        return (binding, cookies.set(.form, binding, maxAge: Int(hosted.settings.formLifetime)))
    }

    /// A page carrying `authorization`'s request and this browser's CSRF token.
    func page(
        _ page: HostedPage,
        for authorization: AuthorizationRequest,
        request: Request,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let (binding, cookie) = formBinding(request)
        var page = page
        page.request = authorization
        page.csrf = hosted.formToken(binding: binding)
        if page.screen == .login, hosted.offersGoogle {
            var google = authorization.continuingOnPage
            google.identityProvider = .google
            page.googleLink = "/oauth2/authorize?" + QueryItems.encode(google.queryItems)
        }
        if page.screen == .login, hosted.offersApple {
            var apple = authorization.continuingOnPage
            apple.identityProvider = .apple
            page.appleLink = "/oauth2/authorize?" + QueryItems.encode(apple.queryItems)
        }
        return pages.response(page, status: status, cookies: [cookie])
    }

    /// The authorization request in a query string, checked.
    func authorization(query: String?) throws(AuthorizationRefusal) -> AuthorizationRequest {
        guard let items = QueryItems.parse(query) else { throw .unknownClient("The request's parameters are not well encoded.") }
        return try hosted.authorizationRequest(items)
    }

    /// The authorization request a page's form carries, checked again.
    func authorization(form: [String: String]) throws(AuthorizationRefusal) -> AuthorizationRequest {
        let names = [
            "response_type", "client_id", "redirect_uri", "scope", "code_challenge", "code_challenge_method", "state", "nonce", "login_hint",
        ]
        return try hosted.authorizationRequest(names.compactMap { name in form[name].map { (name, $0) } })
    }
}
