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
        var email: String?
        if let value = try await body.jsonValue(from: request) {
            guard case .object(let fields) = value else { throw GatehouseError.invalidRequest("The body must be a JSON object.") }
            if let given = fields["email"] {
                guard let text = given.stringValue, text.utf8.count <= 320 else { throw GatehouseError.invalidRequest("'email' must be a string.") }
                email = text
            }
        }
        return JSONResponse.make(body: try await passkeys.authenticationOptions(email: email).serialized())
    }

    @Sendable func signIn(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let value = try await body.jsonValue(from: request) else { throw GatehouseError.invalidRequest("The request body is empty.") }
        let tokens = try await passkeys.signIn(response: value, client: context.client, logger: context.logger)
        return Components.Schemas.Tokens(tokens).fastResponse()
    }

    @Sendable func registrationOptions(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        JSONResponse.make(body: try await passkeys.registrationOptions(for: context.principal).serialized())
    }

    @Sendable func register(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        guard let value = try await body.jsonValue(from: request) else { throw GatehouseError.invalidRequest("The request body is empty.") }
        var name: String?
        if case .object(let fields) = value, let given = fields["name"] {
            guard let text = given.stringValue else { throw GatehouseError.invalidRequest("'name' must be a string.") }
            name = text
        }
        let record = try await passkeys.register(for: context.principal, response: value, name: name, client: context.client, logger: context.logger)
        return JSONResponse.make(.created, body: Self.render(record).serialized())
    }

    @Sendable func list(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let records = try await passkeys.list(for: context.principal)
        return JSONResponse.make(body: JSONValue.object(["passkeys": .array(records.map(Self.render))]).serialized())
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        try await passkeys.delete(for: context.principal, id: id, logger: context.logger)
        return JSONResponse.noContent()
    }

    static func render(_ passkey: PasskeyRecord) -> JSONValue {
        .object([
            "id": .string(passkey.id), "name": .string(passkey.name), "created_at": .string(ContractTimestamp.string(passkey.createdAt)),
            "last_used_at": passkey.lastUsedAt.map { .string(ContractTimestamp.string($0)) } ?? .null,
            "transports": .array(passkey.transports.map(JSONValue.string)), "backed_up": .bool(passkey.backedUp),
            "flagged": .bool(passkey.flaggedAt != nil),
        ])
    }
}
