import GatehouseAPI
import GatehouseCore
import Hummingbird

/// The caller's own account (`/me`): read, update, delete. Every route is authenticated.
struct AccountController {
    let profiles: Profiles
    let accounts: Accounts
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator
    /// GET /me is the hot path: a profile's body is rendered once while it is unchanged.
    let rendered = RenderedProfiles()

    /// Adds the routes behind the authenticator.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        let account = group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
        account.get("/me", use: show)
        account.patch("/me", use: update)
        account.delete("/me", use: delete)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let view = try await profiles.view(for: context.principal, logger: context.logger)
        return JSONResponse.make(.ok, body: try rendered.body(for: view))
    }

    @Sendable func update(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(ProfileUpdateRequest.self, from: request)
        let view = try await profiles.update(for: context.principal, fullName: input.fullName, logger: context.logger)
        return try Components.Schemas.Profile(view).response()
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        // The body is optional (the seeds' clients send none): the current password, for step-up.
        let input = try await body.decodeIfPresent(Operations.DeleteAccount.Input.Body.JsonPayload.self, from: request)
        try await accounts.delete(for: context.principal, currentPassword: input?.currentPassword, client: context.client, logger: context.logger)
        return JSONResponse.noContent()
    }
}
