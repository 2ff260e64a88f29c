import HTTPTypes
import Hummingbird

/// Cross-origin access to the JSON API for the browser apps on the origins in `GATEHOUSE_CORS_ORIGINS`
/// (exact origins; none by default): their preflights are answered with the methods the route serves
/// and the headers a client sends, and their requests' answers (errors included) carry
/// `Access-Control-Allow-Origin`. A request from any other origin gets no CORS header, so its browser
/// keeps the answer from the page. Credentials (cookies) are never allowed cross-origin; the API takes
/// bearer tokens. Pages, redirects, the hosted UI's forms and the operations endpoints never answer CORS.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext

    let origins: Set<String>
    let routes: ExtensionMethodMiddleware.LockedRoutes

    /// Request headers a cross-origin client may send (lowercase): the API's, and those the AWS SDKs and
    /// Amplify send to Cognito's API at `POST /`.
    static let allowedHeaders: Set<String> = [
        "authorization", "content-type", "x-request-id", "x-amz-target", "x-amz-user-agent", "x-amz-date", "cache-control",
        "amz-sdk-invocation-id", "amz-sdk-request",
    ]
    /// Response headers a cross-origin page may read.
    static let exposedHeaders = "Retry-After, X-Request-Id, X-Amzn-ErrorType, X-Amzn-RequestId, WWW-Authenticate"
    /// How long a browser may keep a preflight's answer (seconds).
    static let maxAge = "600"

    /// Whether `method` on `path` is part of the JSON API that browser apps call across origins.
    static func isAPI(_ path: String, _ method: HTTPRequest.Method) -> Bool {
        if path == "/" { return method == .post }  // Cognito's API; GET / is the web page
        if path == "/auth/apple/authorize" || path == "/auth/apple/callback" { return false }  // navigations
        if ["/oauth2/token", "/oauth2/userInfo", "/oauth2/revoke"].contains(path) { return true }
        return path.hasPrefix("/auth/") || path == "/me" || path.hasPrefix("/me/") || path.hasPrefix("/api/v1/")
            || path.hasPrefix("/.well-known/")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        let path = request.uri.path
        let allowed = origins.contains(origin)
        if request.method == .options, let wanted = request.headers[.accessControlRequestMethod] {
            return preflight(origin: origin, allowed: allowed, path: path, method: wanted, headers: request.headers[.accessControlRequestHeaders])
        }
        var response = try await next(request, context)
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
        if allowed, Self.isAPI(path, request.method) {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        }
        return response
    }

    private func preflight(origin: String, allowed: Bool, path: String, method: String, headers: String?) -> Response {
        let vary = HTTPField(name: .vary, value: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        let methods = (routes.methods(for: Substring(path)) ?? []).filter { Self.isAPI(path, $0) }
        let requested = (headers ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        guard allowed, let wanted = HTTPRequest.Method(method), methods.contains(wanted), requested.allSatisfy(Self.allowedHeaders.contains) else {
            // No CORS header: the browser refuses the real request. Said plainly for whoever debugs it.
            var refused = HTTPFields([vary])
            refused[.cacheControl] = "no-store"
            return Response(status: .forbidden, headers: refused)
        }
        var fields = HTTPFields([vary])
        fields[.accessControlAllowOrigin] = origin
        fields[.accessControlAllowMethods] = methods.map(\.rawValue).joined(separator: ", ")
        fields[.accessControlAllowHeaders] = Self.allowedHeaders.sorted().joined(separator: ", ")
        fields[.accessControlMaxAge] = Self.maxAge
        return Response(status: .noContent, headers: fields)
    }
}
