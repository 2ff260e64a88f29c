import Foundation
import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import NIOCore

/// The authorization server's protocol endpoints, with Cognito's names (`GATEHOUSE_HOSTED_UI`):
/// `/oauth2/authorize`, `/oauth2/token`, `/oauth2/userInfo`, `/oauth2/revoke`, `/logout` and
/// `/oauth2/idpresponse` (Google's way back). The forms are ``HostedPagesController``'s.
struct OAuthController {
    let responder: HostedUIResponder
    let sessions: Sessions
    let profiles: Profiles
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator

    var hosted: HostedSignIn { responder.hosted }
    var cookies: HostedCookies { responder.cookies }

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.get("/oauth2/authorize", use: authorize)
        group.post("/oauth2/token", use: token)
        group.post("/oauth2/revoke", use: revoke)
        group.get("/logout", use: logout)
        group.get("/oauth2/idpresponse", use: googleResponse)
        group.post("/oauth2/idpresponse", use: appleResponse)
        let protected = group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
        protected.get("/oauth2/userInfo", use: userInfo)
        protected.post("/oauth2/userInfo", use: userInfo)
    }

    @Sendable func authorize(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let authorization: AuthorizationRequest
        do {
            authorization = try responder.authorization(query: request.uri.query)
        } catch {
            return responder.refusal(error)
        }
        switch authorization.identityProvider {
        case .google:
            do {
                let start = try hosted.startGoogle(authorization)
                return responder.redirect(start.url, cookies: [cookies.set(.federation, start.browserBinding, maxAge: start.lifetime)])
            } catch {
                return responder.refusal(error)
            }
        case .apple:
            do {
                let start = try hosted.startApple(authorization)
                return responder.redirect(start.url, cookies: [cookies.set(.appleFederation, start.browserBinding, maxAge: start.lifetime)])
            } catch {
                return responder.refusal(error)
            }
        case .cognito, nil:
            break
        }
        if authorization.prompt != .login, let session = try await hosted.hostedSession(cookie: cookies.value(.session, in: request)) {
            return responder.redirect(try hosted.complete(authorization, session: session))
        }
        if authorization.prompt == .noInteraction {
            return responder.refusal(authorization.refusal("login_required", "The user is not signed in."))
        }
        return responder.redirect("/login?" + QueryItems.encode(authorization.continuingOnPage.queryItems))
    }

    @Sendable func token(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        do {
            let form = try await FormBody.read(request, reader: body)
            let clientID = try Self.clientID(form: form, headers: request.headers)
            let tokens: AuthTokens
            switch form["grant_type"] {
            case "authorization_code":
                guard let code = form["code"], !code.isEmpty else { throw GatehouseError.invalidRequest("'code' is required.") }
                tokens = try await hosted.redeem(
                    code: code,
                    clientID: clientID,
                    redirectURI: form["redirect_uri"],
                    verifier: form["code_verifier"],
                    logger: context.logger
                )
            case "refresh_token":
                guard ConstantTime.equals(clientID, hosted.clientID) else {
                    throw GatehouseError(.unauthorized, "The client id is not registered with this server.")
                }
                guard let refresh = form["refresh_token"], !refresh.isEmpty else {
                    throw GatehouseError.invalidRequest("'refresh_token' is required.")
                }
                tokens = try await sessions.refresh(refreshToken: refresh, client: context.client, logger: context.logger)
            case nil:
                throw GatehouseError.invalidRequest("'grant_type' is required.")
            default:
                return OAuthError("unsupported_grant_type", "Supported grant types: authorization_code, refresh_token.").response
            }
            let answer = JSONValue.object([
                "id_token": .string(tokens.idToken), "access_token": .string(tokens.accessToken), "refresh_token": .string(tokens.refreshToken),
                "expires_in": .number(Double(tokens.expiresIn)), "token_type": "Bearer",
            ])
            return JSONResponse.make(body: answer.serialized())
        } catch let error as GatehouseError {
            context.logger.info(
                "token request refused",
                metadata: ["error.code": .string(error.code.rawValue), "error.cause": .string(error.cause ?? "-")]
            )
            return error.oauthError.response
        } catch let failure as any ContractFailure {
            return OAuthError(failure).response
        }
    }

    @Sendable func revoke(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        do {
            let form = try await FormBody.read(request, reader: body)
            let clientID = try Self.clientID(form: form, headers: request.headers)
            guard ConstantTime.equals(clientID, hosted.clientID) else {
                throw GatehouseError(.unauthorized, "The client id is not registered with this server.")
            }
            guard let token = form["token"], !token.isEmpty else { throw GatehouseError.invalidRequest("'token' is required.") }
            // RFC 7009 §2.2: an unknown or already revoked token is answered 200 as well.
            try await sessions.signOut(refreshToken: token, logger: context.logger)
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        } catch let error as GatehouseError {
            return error.oauthError.response
        } catch let failure as any ContractFailure {
            return OAuthError(failure).response
        }
    }

    @Sendable func logout(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let items = QueryItems.parse(request.uri.query) else {
            return responder.pages.response(
                .message("Sign-out cannot continue", "The request's parameters are not well encoded."),
                status: .badRequest
            )
        }
        let query = Dictionary(items, uniquingKeysWith: { first, _ in first })
        guard let client = query["client_id"], ConstantTime.equals(client, hosted.clientID) else {
            return responder.pages.response(
                .message("Sign-out cannot continue", "The client id is not registered with this server."),
                status: .badRequest
            )
        }
        var target: String
        if let logoutURI = query["logout_uri"] {
            guard hosted.isRegisteredSignOutURI(logoutURI) else {
                return responder.pages.response(
                    .message("Sign-out cannot continue", "The sign-out URI is not registered for this client (GATEHOUSE_SIGNOUT_URLS)."),
                    status: .badRequest
                )
            }
            target = logoutURI
        } else {
            // Cognito's second form: sign out, then sign in again with this authorization request.
            do {
                let again = try hosted.authorizationRequest(items)
                target = "/login?" + QueryItems.encode(again.continuingOnPage.queryItems)
            } catch {
                return responder.refusal(error)
            }
        }
        try await hosted.endHostedSession(cookie: cookies.value(.session, in: request), logger: context.logger)
        return responder.redirect(target, cookies: [cookies.clear(.session)])
    }

    @Sendable func googleResponse(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let clear = [cookies.clear(.federation)]
        guard let items = QueryItems.parse(request.uri.query) else {
            return responder.refusal(.federationState("The answer's parameters are not well encoded."), cookies: clear)
        }
        let outcome = await hosted.finishGoogle(
            query: Dictionary(items, uniquingKeysWith: { first, _ in first }),
            browserBinding: cookies.value(.federation, in: request),
            client: context.client,
            logger: context.logger
        )
        return try responder.finish(outcome, request: request, cookies: clear)
    }

    @Sendable func appleResponse(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let clear = [cookies.clear(.appleFederation)]
        let form: [String: String]
        do {
            form = try await FormBody.read(request, reader: body)
        } catch let failure as any ContractFailure {
            return responder.refusal(.federationState("Apple's answer could not be read: \(failure.message)"), cookies: clear)
        }
        let outcome = await hosted.finishApple(
            form: form,
            browserBinding: cookies.value(.appleFederation, in: request),
            client: context.client,
            logger: context.logger
        )
        return try responder.finish(outcome, request: request, cookies: clear)
    }

    @Sendable func userInfo(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let view = try await profiles.view(for: context.principal, logger: context.logger)
        let profile = view.profile
        var claims: [String: JSONValue] = ["sub": .string(profile.sub), "username": .string(profile.sub)]
        if let email = profile.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(profile.emailVerified)
        }
        if let name = profile.fullName { claims["name"] = .string(name) }
        if let phone = profile.phone {
            claims["phone_number"] = .string(phone)
            claims["phone_number_verified"] = .bool(profile.phoneVerified)
        }
        return JSONResponse.make(body: JSONValue.object(claims).serialized())
    }

    /// The client id of a token or revocation request: the form's, or HTTP Basic's (RFC 6749 §2.3.1).
    /// The app client is public, so a Basic secret is refused rather than ignored.
    static func clientID(form: [String: String], headers: HTTPFields) throws -> String {
        if let header = headers[.authorization], header.lowercased().hasPrefix("basic ") {
            guard let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
            else { throw GatehouseError(.unauthorized, "The Authorization header is not valid HTTP Basic.") }
            let id = String(text[..<colon]).removingPercentEncoding ?? ""
            guard text[text.index(after: colon)...].isEmpty else {
                throw GatehouseError(.unauthorized, "This app client is public and has no secret; send client_id in the form.")
            }
            if let formID = form["client_id"], formID != id { throw GatehouseError.invalidRequest("Two different client ids were sent.") }
            return id
        }
        guard let id = form["client_id"], !id.isEmpty else { throw GatehouseError(.unauthorized, "'client_id' is required.") }
        return id
    }
}
