import Hummingbird

/// Stands in front of `FileMiddleware` on `GET /assets/{file}`: only the page's own files get
/// through, any other name is the contract's 404 here. `FileMiddleware` alone would answer 400 for
/// a name holding `..` and, in development (`GATEHOUSE_WEB_DIR`), serve any file of the directory,
/// `index.html`'s unfilled template included. Metrics keep counting served files under the route's
/// template (`FileMiddleware` relabels them "FileMiddleware").
struct KnownAssetsMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext

    /// The names served, e.g. `app.js`.
    let names: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let name = context.parameters.get("file"), names.contains(name) else {
            throw TransportError(.notFound, "No such file.")
        }
        let template = context.coreContext.endpointPath.value
        defer { context.coreContext.endpointPath.value = template }
        return try await next(request, context)
    }
}
