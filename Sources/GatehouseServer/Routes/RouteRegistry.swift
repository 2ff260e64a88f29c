import GatehouseCore
import HTTPTypes
import Hummingbird

/// Collects the routes first, so the ``RouteTable`` exists before the middleware that needs it is
/// added, then installs them on the router behind that middleware.
final class RouteRegistry {
    typealias Handler = @Sendable (Request, GatehouseRequestContext) async throws -> Response
    private var routes: [(path: String, method: HTTPRequest.Method, handler: Handler)] = []

    func on(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        routes.append((path, method, handler))
    }

    var table: RouteTable { RouteTable(routes.map { ($0.path, $0.method) }) }

    func install(on router: Router<GatehouseRequestContext>) {
        for route in routes { router.on(RouterPath(route.path), method: route.method, use: route.handler) }
    }
}

/// What the routes need from the rest of the app.
struct RouteDependencies: Sendable {
    let provider: any IdentityProvider
    let profiles: ProfileService
    let social: SocialSignInService
    let appleWeb: AppleWebFlow
    let metrics: GatehouseMetrics
    var events: any AuthEventObserver { metrics }
    let maxBodySize: Int
    let discovery: DiscoveryDocuments

    func json(_ request: Request, _ context: GatehouseRequestContext) async throws -> JSONObjectReader {
        try await JSONBody.read(request, context: context, limit: maxBodySize)
    }

    /// The caller of a protected endpoint: `Authorization: Bearer <access token>` and nothing else.
    func principal(_ request: Request, _ context: GatehouseRequestContext) async throws -> Principal {
        let values = request.headers[values: .authorization]
        guard values.count == 1, let value = values.first else {
            throw GatehouseError.unauthorized(cause: values.isEmpty ? "no Authorization header" : "several Authorization headers")
        }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw GatehouseError.unauthorized(cause: "Authorization is not a Bearer token")
        }
        return try await provider.authenticate(bearer: String(parts[1]).trimmingCharacters(in: .whitespaces), logger: context.logger)
    }
}
