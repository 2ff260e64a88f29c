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

    /// Paths are written `/assets/{file}` (as the OpenAPI document does); Hummingbird gets `:file`.
    func install(on router: Router<GatehouseRequestContext>) {
        for route in routes {
            let hummingbirdPath = route.path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : segment
            }.joined(separator: "/")
            router.on(RouterPath(hummingbirdPath), method: route.method, use: route.handler)
        }
    }
}
