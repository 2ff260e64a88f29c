import GatehouseAPI
import GatehouseCore
import HTTPTypes
import Hummingbird

/// Sign in with Apple on the web and Android: the redirect to Apple, Apple's `form_post` callback,
/// and the PKCE handoff that turns the callback's one-time code into tokens.
struct AppleWebController {
    let social: SocialSignIn
    let body: RequestBodyReader

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.get("/auth/apple/authorize", use: authorize)
        group.post("/auth/apple/callback", use: callback)
        group.post("/auth/handoff", use: handoff)
    }

    @Sendable func authorize(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let challenge = query["code_challenge"].map(String.init) else {
            throw GatehouseError.invalidRequest("'code_challenge' is required (PKCE S256).")
        }
        if let method = query["code_challenge_method"], method != "S256" {
            throw GatehouseError.invalidRequest("Only the S256 code challenge method is supported.")
        }
        let start = try await social.authorizeAppleWeb(codeChallenge: challenge, nonce: query["nonce"].map(String.init), logger: context.logger)
        return Response(
            status: .found,
            headers: [
                .location: start.url, .cacheControl: "no-store", .setCookie: AppleBindingCookie.set(start.browserBinding, maxAge: start.lifetime),
            ]
        )
    }

    @Sendable func callback(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        // The binding cookie is spent whatever happens: a flow is finished once Apple answers.
        var page: Response
        do {
            let form = try await FormBody.read(request, reader: body)
            let target = await social.appleWebCallback(
                form: form,
                browserBinding: AppleBindingCookie.value(in: request),
                client: context.client,
                logger: context.logger
            )
            page = AppleCallbackPage.response(redirectingTo: target)
        } catch let error as TransportError where error.code == .malformedBody {
            throw error  // broken framing: no browser sent this, so no page; a 400
        } catch let error as any ContractFailure {
            context.logger.info("Apple callback with an unreadable form", metadata: ["error.code": .string(error.wireCode)])
            page = AppleCallbackPage.response(redirectingTo: social.appleWebTarget(["error": "invalid_request"]))
        }
        page.headers[.setCookie] = AppleBindingCookie.clear
        return page
    }

    @Sendable func handoff(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.RedeemHandoff.Input.Body.JsonPayload.self, from: request)
        let tokens = try await social.redeemHandoff(code: input.code, verifier: input.codeVerifier, logger: context.logger)
        return Components.Schemas.Tokens(tokens).fastResponse()
    }
}
