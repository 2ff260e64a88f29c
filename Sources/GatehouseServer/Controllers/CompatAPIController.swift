import GatehouseAPI
import GatehouseCore
import Hummingbird

/// The seed 003 (Hero365) API under `/api/v1`, served only with `GATEHOUSE_COMPAT_API_V1=true`: the
/// seed's paths and JSON shapes mapped onto the same use cases as the native endpoints (no rule is
/// implemented twice). Errors keep the contract's envelope and codes. Sign-up answers exactly as
/// `POST /auth/signup`, through that route's controller.
struct CompatAPIController {
    let passwords: PasswordAuthentication
    let passwordRoutes: PasswordController
    let sessions: Sessions
    let social: SocialSignIn
    let phone: PhoneSignIn
    let profiles: Profiles
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator

    /// Adds the routes; `/api/v1/users/me` behind the authenticator.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/api/v1/auth/apple/signin", use: apple)
        group.post("/api/v1/auth/google/signin", use: google)
        group.post("/api/v1/auth/signup", use: signUp)
        group.post("/api/v1/auth/signin", use: signIn)
        group.post("/api/v1/auth/refresh", use: refresh)
        group.post("/api/v1/auth/otp/send", use: sendCode)
        group.post("/api/v1/auth/otp/verify", use: verifyCode)
        group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
            .get("/api/v1/users/me", use: me)
    }

    @Sendable func apple(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.CompatSignInWithApple.Input.Body.JsonPayload.self, from: request)
        let tokens = try await social.signInWithApple(
            identityToken: input.idToken,
            authorizationCode: input.authorizationCode,
            nonce: input.nonce,
            fullName: input.nameHint,
            expectedSubject: input.userIdentifier,
            client: context.client,
            logger: context.logger
        )
        return try await answer(tokens, context: context)
    }

    @Sendable func google(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.CompatSignInWithGoogle.Input.Body.JsonPayload.self, from: request)
        let tokens = try await social.signInWithGoogle(
            idToken: input.idToken,
            nonce: input.nonce,
            fullName: input.nameHint,
            client: context.client,
            logger: context.logger
        )
        return try await answer(tokens, context: context)
    }

    @Sendable func signUp(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.CompatSignUp.Input.Body.JsonPayload.self, from: request)
        return try await passwordRoutes.signUp(email: input.email, password: input.password, fullName: input.fullName, context: context)
    }

    @Sendable func signIn(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.CompatSignIn.Input.Body.JsonPayload.self, from: request)
        let tokens = try await passwords.signIn(email: input.email, password: input.password, client: context.client, logger: context.logger)
        return try await answer(tokens, context: context)
    }

    @Sendable func refresh(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.RefreshToken.JsonPayload.self, from: request)
        let tokens = try await sessions.refresh(refreshToken: input.refreshToken, client: context.client, logger: context.logger)
        return try await answer(tokens, context: context)
    }

    @Sendable func sendCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Components.RequestBodies.PhoneOnly.JsonPayload.self, from: request)
        let delivery = try await phone.sendCode(phone: input.phone, client: context.client, logger: context.logger)
        return try Components.Schemas.CompatCodeSent(delivery).response()
    }

    @Sendable func verifyCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decode(Operations.CompatVerifyPhoneCode.Input.Body.JsonPayload.self, from: request)
        let tokens = try await phone.verifyCode(phone: input.phone, code: try input.presentedCode(), client: context.client, logger: context.logger)
        return try await answer(tokens, context: context)
    }

    @Sendable func me(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let view = try await profiles.view(for: context.principal, logger: context.logger)
        return try Components.Schemas.CompatUser(view).response()
    }

    /// The seed's sign-in answer: the tokens and the profile of the user they were issued to (whom
    /// the use case names, so the new access token is not verified again).
    private func answer(_ tokens: AuthTokens, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = tokens.issuedTo else { throw GatehouseError.internalError(cause: "tokens without whom they were issued to") }
        let view = try await profiles.view(for: principal, logger: context.logger)
        return try Components.Schemas.CompatSignIn(tokens, user: view).response()
    }
}
