import GatehouseCore
import HTTPTypes
import Hummingbird

/// Native Sign in with Google and Apple (token exchange), and Apple's web/Android flow.
enum SocialRoutes {
    static func register(on routes: RouteRegistry, _ d: RouteDependencies) {
        routes.on(.post, "/auth/google") { request, context in
            let body = try await d.json(request, context)
            let tokens = try await d.social.signInWithGoogle(
                idToken: try body.string("id_token", maxLength: 16384), nonce: try body.optionalString("nonce", maxLength: 256),
                fullName: try body.optionalString("full_name", maxLength: 1024), client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, body: WireFormat.tokens(tokens))
        }
        routes.on(.post, "/auth/apple") { request, context in
            let body = try await d.json(request, context)
            let tokens = try await d.social.signInWithApple(
                identityToken: try body.string("identity_token", maxLength: 16384),
                authorizationCode: try body.optionalString("authorization_code", maxLength: 1024),
                nonce: try body.optionalString("nonce", maxLength: 256), fullName: try body.optionalString("full_name", maxLength: 1024),
                client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, body: WireFormat.tokens(tokens))
        }
        routes.on(.get, "/auth/apple/authorize") { request, context in
            let query = request.uri.queryParameters
            guard let challenge = query["code_challenge"].map(String.init) else {
                throw GatehouseError.invalidRequest("'code_challenge' is required (PKCE S256).")
            }
            if let method = query["code_challenge_method"], method != "S256" {
                throw GatehouseError.invalidRequest("Only the S256 code challenge method is supported.")
            }
            let start = try await d.social.authorizeAppleWeb(codeChallenge: challenge, nonce: query["nonce"].map(String.init), logger: context.logger)
            return Response(status: .found, headers: [
                .location: start.url, .cacheControl: "no-store", .setCookie: AppleBindingCookie.set(start.browserBinding, maxAge: start.lifetime),
            ])
        }
        routes.on(.post, "/auth/apple/callback") { request, context in
            // The binding cookie is spent whatever happens: a flow is finished once Apple answers.
            var page: Response
            do {
                let form = try await FormBody.read(request, limit: d.maxBodySize)
                let target = await d.social.appleWebCallback(
                    form: form, browserBinding: AppleBindingCookie.value(in: request), client: context.client, logger: context.logger)
                page = AppleCallbackPage.response(redirectingTo: target)
            } catch let error as GatehouseError {
                context.logger.info("Apple callback with an unreadable form", metadata: ["error.code": .string(error.code.rawValue)])
                page = AppleCallbackPage.response(redirectingTo: d.social.appleWebTarget(["error": "invalid_request"]))
            }
            page.headers[.setCookie] = AppleBindingCookie.clear
            return page
        }
        routes.on(.post, "/auth/handoff") { request, context in
            let body = try await d.json(request, context)
            let tokens = try await d.social.redeemHandoff(
                code: try body.string("code", maxLength: 256), verifier: try body.string("code_verifier", maxLength: 256), logger: context.logger)
            return JSONResponse.make(.ok, body: WireFormat.tokens(tokens))
        }
    }
}
