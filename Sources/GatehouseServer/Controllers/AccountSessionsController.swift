import GatehouseAPI
import GatehouseCore
import Hummingbird

/// The caller's own sessions and email address: `GET /me/sessions`, `DELETE /me/sessions/{id}`,
/// `POST /me/email` and `POST /me/email/verify`. Every route is authenticated.
struct AccountSessionsController {
    let sessions: AccountSessions
    let emailChange: EmailChange
    let profiles: Profiles
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator

    /// Adds the routes behind the authenticator.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        let account = group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
        account.get("/me/sessions", use: list)
        account.delete("/me/sessions/:id", use: end)
        account.post("/me/email", use: changeEmail)
        account.post("/me/email/verify", use: verifyEmail)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        try Components.Schemas.SessionList(try await sessions.list(for: context.principal)).response()
    }

    @Sendable func end(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        try await sessions.end(id: id, for: context.principal, logger: context.logger)
        return JSONResponse.noContent()
    }

    @Sendable func changeEmail(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.ChangeEmail.Input.Body.JsonPayload.self, from: request)
        let delivery = try await emailChange.start(
            for: context.principal,
            email: input.email,
            currentPassword: input.currentPassword,
            client: context.client,
            logger: context.logger
        )
        return try Components.Schemas.CodeDeliveryResult(delivery).response()
    }

    @Sendable func verifyEmail(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.VerifyEmailChange.Input.Body.JsonPayload.self, from: request)
        try await emailChange.confirm(for: context.principal, code: input.code, client: context.client, logger: context.logger)
        return try Components.Schemas.Profile(try await profiles.view(for: context.principal, logger: context.logger)).response()
    }
}
