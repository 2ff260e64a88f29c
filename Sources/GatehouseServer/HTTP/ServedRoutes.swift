import HTTPTypes

/// The (path, method) pairs the router serves, as the controllers registered them (paths in the
/// OpenAPI form, `/assets/{file}`). The OpenAPI tests compare the document with this.
public struct ServedRoutes: Sendable {
    /// One served route.
    public struct Route: Sendable, Hashable {
        /// The path template, e.g. `/me` or `/assets/{file}`.
        public let path: String
        /// The method, e.g. `GET`.
        public let method: String
    }

    /// HTTP's standard methods: the router answers 405 for each one a served path does not serve
    /// (``ExtensionMethodMiddleware`` answers any other method).
    static let standardMethods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace, .connect]

    /// Every served route, in registration order.
    public let routes: [Route]

    /// Every (path, method) pair.
    public var all: [(path: String, method: String)] { routes.map { ($0.path, $0.method) } }

    /// The distinct path templates.
    public var paths: [String] { Array(Set(routes.map(\.path))).sorted() }
}
