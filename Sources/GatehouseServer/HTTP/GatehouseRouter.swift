import GatehouseCore
import Hummingbird

/// Puts every controller on the router behind the middleware chain (outermost first: request id
/// and logging, metrics, errors), then a 405 responder on each served path for the methods it
/// does not serve.
struct GatehouseRouter {
    let provider: any IdentityProvider
    let profiles: ProfileService
    let social: SocialSignInService
    let appleWeb: AppleWebFlow
    let metrics: GatehouseMetrics
    let discovery: DiscoveryDocuments
    let web: WebPage
    let body: RequestBodyReader
    let trustedProxies: Set<String>

    /// Adds the middleware and every controller's routes.
    /// - Parameter router: The application's router.
    /// - Returns: The routes served.
    func install(on router: Router<GatehouseRequestContext>) -> ServedRoutes {
        router.add(middleware: RequestContextMiddleware(trustedProxies: trustedProxies))
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: ErrorMiddleware())
        let recorder = RouteRecorder(router: router)
        let routes = recorder.group()
        let authenticator = BearerAuthenticator(provider: provider)
        WebPageController(page: web).addRoutes(to: routes)
        PasswordController(provider: provider, body: body, authenticator: authenticator).addRoutes(to: routes)
        TokenController(provider: provider, body: body, authenticator: authenticator).addRoutes(to: routes)
        AccountController(profiles: profiles, body: body, authenticator: authenticator).addRoutes(to: routes)
        SocialController(social: social, body: body).addRoutes(to: routes)
        AppleWebController(appleWeb: appleWeb, events: metrics, body: body).addRoutes(to: routes)
        WellKnownController(discovery: discovery).addRoutes(to: routes)
        OperationsController(provider: provider, metrics: metrics).addRoutes(to: routes)
        return recorder.finish()
    }
}
