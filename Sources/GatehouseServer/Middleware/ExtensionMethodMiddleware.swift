import GatehouseInfrastructure
import HTTPTypes
import Hummingbird

/// Answers a request whose method is not one of HTTP's standard ones (`QUERY`, `PROPFIND`, …) on a
/// path the router serves with 405 and `Allow`, as a known path asked with a standard method it does
/// not serve is answered; the router itself can only register methods by name, so it would say 404.
/// On a path nobody serves, the answer stays 404.
struct ExtensionMethodMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext

    /// The served routes, filled once the controllers have registered theirs (the middleware must be
    /// on the router before them).
    let routes: LockedRoutes

    /// A set-once holder of the served routes' path templates and their methods.
    final class LockedRoutes: Sendable {
        struct Route: Sendable {
            var segments: [Substring]
            var methods: [HTTPRequest.Method]

            func matches(_ path: [Substring]) -> Bool {
                guard segments.count == path.count else { return false }
                for (template, segment) in zip(segments, path) where template != segment {
                    guard template.hasPrefix("{"), template.hasSuffix("}") else { return false }
                }
                return true
            }
        }

        private let table = LockedBox<[Route]>([])

        /// Records what the router serves.
        /// - Parameter served: The routes the controllers registered.
        func fill(_ served: ServedRoutes) {
            var byPath: [String: [HTTPRequest.Method]] = [:]
            for route in served.routes { byPath[route.path, default: []].append(HTTPRequest.Method(route.method) ?? .get) }
            let routes = byPath.map { path, methods in Route(segments: path.split(separator: "/"), methods: methods) }
            table.withLock { $0 = routes }
        }

        /// The methods the path serves, if any route's template matches it (`{name}` matches one segment).
        func methods(for path: Substring) -> [HTTPRequest.Method]? {
            let segments = path.split(separator: "/")
            return table.withLock { table in table.first { $0.matches(segments) }?.methods }
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !ServedRoutes.standardMethods.contains(request.method), let allowed = routes.methods(for: Substring(request.uri.path))
        else { return try await next(request, context) }
        context.coreContext.endpointPath.value = "MethodNotAllowed"
        throw TransportError(.methodNotAllowed, "This path does not accept \(request.method.rawValue).", allowedMethods: allowed)
    }
}
