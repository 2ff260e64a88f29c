import GatehouseAPI
import GatehouseCore
import Hummingbird

/// Sessions: refreshing the tokens, signing one session out, and (authenticated) all of them.
struct TokenController {
    let sessions: Sessions
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator

    /// Adds the routes; `/auth/signout/all` behind the authenticator.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/auth/refresh", use: refresh)
        group.post("/auth/signout", use: signOut)
        group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
            .post("/auth/signout/all", use: signOutEverywhere)
    }

    @Sendable func refresh(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.RefreshToken.JsonPayload.self, from: request)
        let tokens = try await sessions.refresh(refreshToken: input.refreshToken, client: context.client, logger: context.logger)
        return Components.Schemas.Tokens(tokens).fastResponse()
    }

    @Sendable func signOut(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.RefreshToken.JsonPayload.self, from: request)
        try await sessions.signOut(refreshToken: input.refreshToken, logger: context.logger)
        return JSONResponse.noContent()
    }

    @Sendable func signOutEverywhere(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        try await sessions.signOutEverywhere(principal: context.principal, logger: context.logger)
        return JSONResponse.noContent()
    }
}
