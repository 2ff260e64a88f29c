import HTTPTypes
import Hummingbird

/// Adds the web page's security headers to every answer of the page and its assets (304s
/// included): the deployment's ``PageSecurityPolicy``, `X-Content-Type-Options: nosniff`,
/// `Referrer-Policy: no-referrer` and `X-Frame-Options: DENY`.
struct WebSecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext

    /// The page's policy, rendered once.
    let contentSecurityPolicy: String

    /// - Parameter policy: The page's policy (``PageSecurityPolicy/webPage(for:)``).
    init(policy: PageSecurityPolicy) {
        contentSecurityPolicy = policy.description
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        return response
    }
}

extension HTTPField.Name {
    fileprivate static var referrerPolicy: Self { .init("Referrer-Policy")! }
    fileprivate static var xFrameOptions: Self { .init("X-Frame-Options")! }
}
