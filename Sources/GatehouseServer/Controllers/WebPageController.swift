import Hummingbird
import Logging

/// The web page at `/` and its assets under `/assets/`, both with the page's security headers.
/// The assets are Hummingbird's `FileMiddleware` over the embedded files and, in development
/// (`GATEHOUSE_WEB_DIR`), over the directory first: a file missing there falls back to the
/// embedded copy. The route `GET /assets/{file}` itself only answers 404: the middleware in front
/// of it serves any file it has.
struct WebPageController {
    let page: WebPage

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        let web = group.group().add(middleware: WebSecurityHeadersMiddleware(policy: page.contentSecurityPolicy))
        web.get("/", use: index)
        let assets = web.group()
            .add(middleware: KnownAssetsMiddleware(names: Set(WebAssets.assets.keys)))
            .add(
                middleware: FileMiddleware<GatehouseRequestContext, EmbeddedFileProvider>(
                    fileProvider: EmbeddedFileProvider(files: WebAssets.assets.mapValues(\.bytes)),
                    urlBasePath: "/assets",
                    cacheControl: CacheControl([(MediaType(type: .any), [.public, .maxAge(300)])])
                ).withAdditionalMediaTypes(forFileExtensions: WebAssets.mediaTypes)
            )
        if let directory = page.liveDirectory {
            assets.add(
                middleware: FileMiddleware<GatehouseRequestContext, LocalFileSystem>(
                    directory,
                    urlBasePath: "/assets",
                    cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]),
                    logger: Logger(label: "gatehouse.web")
                ).withAdditionalMediaTypes(forFileExtensions: WebAssets.mediaTypes)
            )
        }
        assets.get("/assets/{file}", use: missing)
    }

    @Sendable func index(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        page.indexResponse()
    }

    /// Reached only when no file middleware had the file.
    @Sendable func missing(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        throw TransportError(.notFound, "No such file.")
    }
}
