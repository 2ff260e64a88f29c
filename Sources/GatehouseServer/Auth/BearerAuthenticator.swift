import GatehouseCore
import Hummingbird

/// Authenticates the protected routes' requests: the Bearer access token, verified by the sessions use case, becomes the context's principal; a request without a valid one is refused with 401
/// before its handler (or its body) is touched. Routes behind it take
/// ``AuthenticatedRequestContext``, whose principal is not optional.
struct BearerAuthenticator: RouterMiddleware {
    typealias Context = GatehouseRequestContext
    let sessions: Sessions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let token = try BearerToken.token(in: request.headers)
        context.principal = try await sessions.authenticate(bearer: token, logger: context.logger)
        return try await next(request, context)
    }
}
