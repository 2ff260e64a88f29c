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

    /// The token of `Bearer <token>` (scheme case-insensitive, spaces around the token ignored).
    /// Works on the UTF-8 bytes: this runs on every protected request.
    static func bearerToken(_ header: String) -> String? {
        var bytes = Substring(header).utf8[...]
        while bytes.first == UInt8(ascii: " ") { bytes = bytes.dropFirst() }
        while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
        guard bytes.count > 7 else { return nil }
        let scheme = bytes.prefix(6)
        guard zip(scheme, "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }), bytes.dropFirst(6).first == UInt8(ascii: " ") else { return nil }
        var token = bytes.dropFirst(7)
        while token.first == UInt8(ascii: " ") { token = token.dropFirst() }
        guard !token.isEmpty, !token.contains(UInt8(ascii: " ")) else { return nil }
        return String(Substring(token))
    }

    /// The caller of a protected endpoint: `Authorization: Bearer <access token>` and nothing else.
    func principal(_ request: Request, _ context: GatehouseRequestContext) async throws -> Principal {
        let values = request.headers[values: .authorization]
        guard values.count == 1, let value = values.first else {
            throw GatehouseError.unauthorized(cause: values.isEmpty ? "no Authorization header" : "several Authorization headers")
        }
        guard let token = Self.bearerToken(value) else {
            throw GatehouseError.unauthorized(cause: "Authorization is not a Bearer token")
        }
        return try await provider.authenticate(bearer: token, logger: context.logger)
    }
}
