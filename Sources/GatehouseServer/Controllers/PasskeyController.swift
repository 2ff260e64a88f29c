import Foundation
import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import Hummingbird

/// Passkeys (`GATEHOUSE_PASSKEY_RP_ID`): registration and management by a signed-in user under `/me/passkeys`,
/// sign-in under `/auth/passkey`. The bodies are WebAuthn's own JSON forms
/// (`PublicKeyCredentialCreationOptionsJSON`, `RegistrationResponseJSON`, …), which browsers'
/// `PublicKeyCredential.parseCreationOptionsFromJSON` and `toJSON()` read and write as they are.
struct PasskeyController {
    let passkeys: Passkeys
    let body: RequestBodyReader
    let authenticator: BearerAuthenticator

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/auth/passkey/options", use: signInOptions)
        group.post("/auth/passkey/signin", use: signIn)
        let account = group.group().add(middleware: authenticator).group(context: AuthenticatedRequestContext.self)
        account.post("/me/passkeys/options", use: registrationOptions)
        account.post("/me/passkeys", use: register)
        account.get("/me/passkeys", use: list)
        account.delete("/me/passkeys/{id}", use: delete)
    }

    @Sendable func signInOptions(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decodeIfPresent(Operations.PasskeySignInOptions.Input.Body.JsonPayload.self, from: request)
        return JSONResponse.make(body: try await passkeys.authenticationOptions(email: input?.email).serialized())
    }

    /// The credential's declared members are checked by the body reader against the document; the use
    /// case verifies the credential from its JSON, as WebAuthn defines it.
    @Sendable func signIn(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try await body.decodeWithJSON(Operations.SignInWithPasskey.Input.Body.JsonPayload.self, from: request)
        let tokens = try await passkeys.signIn(response: input.json, client: context.client, logger: context.logger)
        return Components.Schemas.Tokens(tokens).fastResponse()
    }

    @Sendable func registrationOptions(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        JSONResponse.make(body: try await passkeys.registrationOptions(for: context.principal).serialized())
    }

    @Sendable func register(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let input = try await body.decodeWithJSON(Operations.RegisterPasskey.Input.Body.JsonPayload.self, from: request)
        let record = try await passkeys.register(
            for: context.principal,
            response: input.json,
            name: input.body.name,
            client: context.client,
            logger: context.logger
        )
        return try Components.Schemas.Passkey(record).response(.created)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let records = try await passkeys.list(for: context.principal)
        return try Components.Schemas.PasskeyList(passkeys: records.map(Components.Schemas.Passkey.init)).response()
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        try await passkeys.delete(for: context.principal, id: id, logger: context.logger)
        return JSONResponse.noContent()
    }
}
