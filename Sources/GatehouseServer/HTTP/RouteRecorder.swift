import HTTPTypes
import Hummingbird

/// The router as controllers see it: every route they add goes to Hummingbird's router and is
/// noted, so the served routes are known (for the OpenAPI tests) and each path gets a 405
/// responder, with `Allow`, for the methods it does not serve.
final class RouteRecorder<Context: RequestContext>: RouterMethods {
    private let router: Router<Context>
    private var recorded: [(path: RouterPath, method: HTTPRequest.Method)] = []

    /// - Parameter router: The router the routes go to.
    init(router: Router<Context>) {
        self.router = router
    }

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath,
        method: HTTPRequest.Method,
        responder: Responder
    ) -> Self where Responder.Context == Context {
        recorded.append((path, method))
        router.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    /// Registers, for every recorded path, a ``MethodNotAllowedResponder`` on each standard method
    /// the path does not serve, and returns what is served.
    /// - Returns: The served routes.
    func finish() -> ServedRoutes {
        var allowed: [(path: RouterPath, methods: [HTTPRequest.Method])] = []
        for (path, method) in recorded {
            if let index = allowed.firstIndex(where: { $0.path == path }) {
                allowed[index].methods.append(method)
            } else {
                allowed.append((path, [method]))
            }
        }
        for (path, methods) in allowed {
            let responder = MethodNotAllowedResponder<Context>(allowed: methods)
            for method in ServedRoutes.standardMethods where !methods.contains(method) {
                router.on(path, method: method, responder: responder)
            }
        }
        return ServedRoutes(routes: recorded.map { .init(path: $0.path.description, method: $0.method.rawValue) })
    }
}
