import Hummingbird

/// The web page at `/` and its assets under `/assets/`.
struct WebPageController {
    let page: WebPage

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.get("/", use: index)
        group.get("/assets/{file}", use: asset)
    }

    @Sendable func index(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        page.indexResponse()
    }

    @Sendable func asset(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try page.asset(context.parameters.get("file") ?? "")
    }
}
