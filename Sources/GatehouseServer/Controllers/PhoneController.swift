import GatehouseAPI
import GatehouseCore
import Hummingbird

/// Phone numbers: sign-in with a texted code, and adding a number to the signed-in
/// account (`/me/phone`, behind the authenticator).
struct PhoneController {
    let phone: PhoneSignIn
    let profiles: Profiles
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/auth/phone/send", use: send)
        group.post("/auth/phone/verify", use: verify)
        let account = group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
        account.post("/me/phone", use: add)
        account.post("/me/phone/verify", use: confirm)
    }

    @Sendable func send(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.PhoneOnly.JsonPayload.self, from: request)
        let delivery = try await phone.sendCode(phone: input.phone, client: context.client, logger: context.logger)
        return try Components.Schemas.CodeDeliveryResult(delivery).response()
    }

    @Sendable func verify(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.PhoneCode.JsonPayload.self, from: request)
        let tokens = try await phone.verifyCode(phone: input.phone, code: input.code, client: context.client, logger: context.logger)
        return Components.Schemas.Tokens(tokens).fastResponse()
    }

    @Sendable func add(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.AddPhone.Input.Body.JsonPayload.self, from: request)
        let delivery = try await phone.addNumber(
            principal: context.principal,
            phone: input.phone,
            currentPassword: input.currentPassword,
            client: context.client,
            logger: context.logger
        )
        return try Components.Schemas.CodeDeliveryResult(delivery).response()
    }

    @Sendable func confirm(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.PhoneCode.JsonPayload.self, from: request)
        try await phone.verifyNumber(
            principal: context.principal,
            phone: input.phone,
            code: input.code,
            client: context.client,
            logger: context.logger
        )
        let view = try await profiles.view(for: context.principal, logger: context.logger)
        return try Components.Schemas.Profile(view).response()
    }
}
