import GatehouseAPI
import GatehouseCore
import Hummingbird

/// Email and password accounts: sign-up and its confirmation, sign-in, and the password's reset
/// and change (CONTRACT.md, "Email and password").
struct PasswordController {
    let passwords: PasswordAuthentication
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator

    /// Adds the routes; `/auth/password/change` behind the authenticator.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/auth/signup", use: signUp)
        group.post("/auth/confirm", use: confirm)
        group.post("/auth/resend-code", use: resendCode)
        group.post("/auth/signin", use: signIn)
        group.post("/auth/password/forgot", use: forgotPassword)
        group.post("/auth/password/reset", use: resetPassword)
        group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
            .post("/auth/password/change", use: changePassword)
    }

    @Sendable func signUp(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.SignUp.Input.Body.JsonPayload.self, from: request)
        return try await signUp(email: input.email, password: input.password, fullName: input.fullName, context: context)
    }

    /// Signs up and answers 201, for `POST /auth/signup` and the seed's `POST /api/v1/auth/signup`
    /// (each reads its own operation's body).
    func signUp(email: String, password: String, fullName: String?, context: GatehouseRequestContext) async throws -> Response {
        let result = try await passwords.signUp(email: email, password: password, fullName: fullName, client: context.client, logger: context.logger)
        return try Components.Schemas.SignUpResult(result).response(.created)
    }

    @Sendable func confirm(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.ConfirmSignUp.Input.Body.JsonPayload.self, from: request)
        try await passwords.confirmSignUp(email: input.email, code: input.code, client: context.client, logger: context.logger)
        return try Components.Schemas.Confirmed(confirmed: true).response()
    }

    @Sendable func resendCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.EmailOnly.JsonPayload.self, from: request)
        let delivery = try await passwords.resendConfirmationCode(email: input.email, client: context.client, logger: context.logger)
        return try Components.Schemas.CodeDeliveryResult(delivery).response()
    }

    @Sendable func signIn(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.SignIn.Input.Body.JsonPayload.self, from: request)
        let tokens = try await passwords.signIn(email: input.email, password: input.password, client: context.client, logger: context.logger)
        return Components.Schemas.Tokens(tokens).fastResponse()
    }

    @Sendable func forgotPassword(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.EmailOnly.JsonPayload.self, from: request)
        let delivery = try await passwords.forgotPassword(email: input.email, client: context.client, logger: context.logger)
        return try Components.Schemas.CodeDeliveryResult(delivery).response()
    }

    @Sendable func resetPassword(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.ResetPassword.Input.Body.JsonPayload.self, from: request)
        try await passwords.resetPassword(
            email: input.email,
            code: input.code,
            newPassword: input.newPassword,
            client: context.client,
            logger: context.logger
        )
        return try Components.Schemas.PasswordReset(reset: true).response()
    }

    @Sendable func changePassword(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.ChangePassword.Input.Body.JsonPayload.self, from: request)
        try await passwords.changePassword(
            principal: context.principal,
            currentPassword: input.currentPassword,
            newPassword: input.newPassword,
            client: context.client,
            logger: context.logger
        )
        return try Components.Schemas.PasswordChanged(changed: true).response()
    }
}
