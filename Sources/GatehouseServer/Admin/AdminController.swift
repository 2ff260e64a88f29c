import Foundation
import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import Hummingbird

/// The admin API under `/admin/` (described in openapi.yaml with the `adminKey` scheme): users found,
/// read, created, changed, disabled, signed out and deleted, the audit log read, and webhook endpoints managed, all behind
/// ``AdminAuthenticator``. No CORS headers are ever added here (``CORSMiddleware`` leaves `/admin/` out).
struct AdminController {
    let administration: Administration
    let body: RequestBodyReader

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        let admin = group.group("/admin").add(middleware: AdminAuthenticator(administration: administration))
        admin.get("/users", use: list)
        admin.post("/users", use: create)
        admin.get("/users/{sub}", use: show)
        admin.patch("/users/{sub}", use: update)
        admin.delete("/users/{sub}", use: delete)
        admin.post("/users/{sub}/disable", use: disable)
        admin.post("/users/{sub}/enable", use: enable)
        admin.post("/users/{sub}/signout", use: signOut)
        admin.get("/audit", use: audit)
        admin.get("/webhooks", use: webhooks)
        admin.post("/webhooks", use: addWebhook)
        admin.delete("/webhooks/{id}", use: removeWebhook)
    }

    @Sendable func list(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query = try AdminQuery(request.uri.query, allowed: ["email", "phone_number", "sub", "created_from", "created_before", "cursor", "limit"])
        var users = UserQuery(limit: try query.limit(default: 50, maximum: UserQuery.maximumLimit))
        if let email = query["email"] {
            guard let address = try? EmailAddress(email) else { throw GatehouseError.invalidRequest("'email' is not an email address.") }
            users.emailKey = address.key
        }
        if let phone = query["phone_number"] {
            guard let number = try? PhoneNumber(parsing: phone) else {
                throw GatehouseError.invalidRequest("'phone_number' must be a phone number in E.164 form (+15551234567).")
            }
            users.phone = number.e164
        }
        users.sub = try query.identifier("sub")
        users.createdFrom = try query.time("created_from")
        users.createdBefore = try query.time("created_before")
        if let cursor = query["cursor"] {
            guard let position = UserCursor(encoded: cursor) else {
                throw GatehouseError.invalidRequest("'cursor' is not a cursor this API handed out.")
            }
            users.after = position
        }
        let page = try await administration.users(users)
        let next = page.count == users.limit ? page.last.map { UserCursor(createdAt: $0.createdAt, sub: $0.id).encoded } : nil
        return try Components.Schemas.AdminUserPage(users: page.map(Components.Schemas.AdminUser.init), nextCursor: next).response()
    }

    @Sendable func show(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try Components.Schemas.AdminUserDetails(try await administration.user(id: try Self.sub(context))).response()
    }

    @Sendable func create(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await body.decode(Operations.CreateAdminUser.Input.Body.JsonPayload.self, from: request)
        guard let address = try? EmailAddress(body.email) else { throw GatehouseError.invalidRequest("'email' is not an email address.") }
        let new = NewUser(
            email: address,
            password: body.password,
            name: body.name,
            confirmed: body.confirmed ?? true,
            emailVerified: body.emailVerified
        )
        let user = try await administration.createUser(new)
        return try Components.Schemas.AdminUser(user).response(.created)
    }

    @Sendable func update(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await body.decode(AdminUpdateUserRequest.self, from: request)
        let user = try await administration.updateUser(
            id: try Self.sub(context),
            UserChanges(name: body.name, emailVerified: body.emailVerified, disabled: body.disabled)
        )
        return try Components.Schemas.AdminUser(user).response()
    }

    @Sendable func disable(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let user = try await administration.updateUser(id: try Self.sub(context), UserChanges(disabled: true))
        return try Components.Schemas.AdminUser(user).response()
    }

    @Sendable func enable(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let user = try await administration.updateUser(id: try Self.sub(context), UserChanges(disabled: false))
        return try Components.Schemas.AdminUser(user).response()
    }

    @Sendable func signOut(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let ended = try await administration.signOut(id: try Self.sub(context))
        return try Components.Schemas.AdminSignOut(sessionsEnded: ended).response()
    }

    @Sendable func delete(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await administration.deleteUser(id: try Self.sub(context), logger: context.logger)
        return JSONResponse.noContent()
    }

    @Sendable func audit(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query = try AdminQuery(request.uri.query, allowed: ["user_id", "event", "since", "until", "cursor", "limit"])
        var audit = AuditQuery(limit: try query.limit(default: 100, maximum: AuditQuery.maximumLimit))
        audit.userID = try query.identifier("user_id")
        if let event = query["event"] {
            guard let known = AuditEvent(rawValue: event) else { throw GatehouseError.invalidRequest("'event' is not an audit event.") }
            audit.event = known
        }
        audit.since = try query.time("since")
        audit.until = try query.time("until")
        audit.before = try query.identifier("cursor")
        let page = try await administration.auditLog(audit)
        let next = page.count == audit.limit ? page.last?.id : nil
        return try Components.Schemas.AuditPage(entries: page.map(Components.Schemas.AuditEntry.init), nextCursor: next).response()
    }

    static func sub(_ context: GatehouseRequestContext) throws -> String {
        guard let sub = context.parameters.get("sub"), AdminQuery.isIdentifier(sub) else { throw GatehouseError(.notFound, "No such user.") }
        return sub
    }
}
