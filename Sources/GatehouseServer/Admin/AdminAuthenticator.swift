import GatehouseCore
import HTTPTypes
import Hummingbird

/// Guards `/admin/`: for servers and scripts, never for browsers. A request a browser made (it carries
/// `Origin` or any `Sec-Fetch-*` header, which pages cannot suppress) is refused before the key is
/// read; otherwise exactly one `Authorization: Bearer gha_…` with a live admin key. A user's access
/// token has another shape and is never an admin credential. The handler runs with the audit actor
/// `admin:<key name>`; every refusal is audited.
struct AdminAuthenticator: RouterMiddleware {
    typealias Context = GatehouseRequestContext
    let administration: Administration

    static let browserHeaders: [HTTPField.Name] =
        [.origin] + ["Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest"].compactMap { HTTPField.Name($0) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.browserHeaders.contains(where: { request.headers[$0] != nil }) {
            try await administration.refuse("browser request")
            throw GatehouseError(.forbidden, "The admin API does not answer browsers; call it from a server or a script.")
        }
        let presented: String
        do {
            presented = try BearerToken.token(in: request.headers)
        } catch {
            try await administration.refuse("no bearer key")
            throw error
        }
        let key = try await administration.authenticate(key: presented)
        var origin = AuditOrigin.current
        origin.actor = "admin:" + key.name
        return try await AuditOrigin.$current.withValue(origin) { try await next(request, context) }
    }
}
