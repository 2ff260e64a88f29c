import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import Hummingbird

/// The second factor (authenticator app and recovery codes): enrolment and removal by a signed-in user
/// under `/me/mfa`, and the second step of a sign-in that answered `mfa_required`.
struct SecondFactorController {
    let secondFactor: SecondFactor
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/auth/mfa/verify", use: verify)
        let account = group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
        account.get("/me/mfa", use: status)
        account.post("/me/mfa/totp", use: enrol)
        account.post("/me/mfa/totp/verify", use: confirm)
        account.delete("/me/mfa/totp", use: remove)
        account.post("/me/mfa/recovery-codes", use: regenerate)
    }

    @Sendable func verify(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.VerifySecondFactor.Input.Body.JsonPayload.self, from: request)
        let tokens = try await secondFactor.verify(token: input.mfaToken, code: input.code, client: context.client, logger: context.logger)
        return Components.Schemas.Tokens(tokens).fastResponse()
    }

    @Sendable func status(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let status = try await secondFactor.status(for: context.principal)
        return try Components.Schemas.SecondFactorStatus(status).response()
    }

    @Sendable func enrol(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let enrolment = try await secondFactor.enrol(for: context.principal)
        return try Components.Schemas.AuthenticatorAppEnrolment(enrolment).response()
    }

    @Sendable func confirm(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.MFACode.JsonPayload.self, from: request)
        let codes = try await secondFactor.confirm(for: context.principal, code: input.code, logger: context.logger)
        return try Components.Schemas.RecoveryCodes(recoveryCodes: codes).response()
    }

    @Sendable func remove(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.MFACode.JsonPayload.self, from: request)
        try await secondFactor.remove(for: context.principal, code: input.code, logger: context.logger)
        return JSONResponse.noContent()
    }

    @Sendable func regenerate(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.MFACode.JsonPayload.self, from: request)
        let codes = try await secondFactor.regenerateRecoveryCodes(for: context.principal, code: input.code)
        return try Components.Schemas.RecoveryCodes(recoveryCodes: codes).response()
    }
}
