import GatehouseAPI
import GatehouseCore
import Hummingbird

/// Native Sign in with Google and Apple: the app's provider token exchanged for Gatehouse tokens.
struct SocialController {
    let social: SocialSignIn
    let body: RequestBodyReader

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/auth/google", use: google)
        group.post("/auth/apple", use: apple)
    }

    @Sendable func google(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.SignInWithGoogle.Input.Body.JsonPayload.self, from: request)
        let tokens = try await social.signInWithGoogle(
            idToken: input.idToken,
            nonce: input.nonce,
            fullName: input.fullName,
            client: context.client,
            logger: context.logger
        )
        return Components.Schemas.Tokens(tokens).fastResponse()
    }

    @Sendable func apple(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.SignInWithApple.Input.Body.JsonPayload.self, from: request)
        let tokens = try await social.signInWithApple(
            identityToken: input.identityToken,
            authorizationCode: input.authorizationCode,
            nonce: input.nonce,
            fullName: input.fullName,
            client: context.client,
            logger: context.logger
        )
        return Components.Schemas.Tokens(tokens).fastResponse()
    }
}
