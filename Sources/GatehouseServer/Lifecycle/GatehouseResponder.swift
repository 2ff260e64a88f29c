import Hummingbird

/// The application's responder: the router built in `beforeServerStarts` (with the rest of the
/// ``GatehouseRuntime``), reached through one atomic load. The server binds only after it is
/// published, so every request finds it.
public struct GatehouseResponder: HTTPResponder {
    public typealias Context = GatehouseRequestContext
    let published: PublishedRuntime

    /// Answers with the published router.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Its context.
    /// - Returns: The router's response.
    /// - Throws: What the router throws; 503 if the runtime is not published yet (a request cannot
    ///   arrive before that, since the server binds after `beforeServerStarts`).
    public func respond(to request: Request, context: Context) async throws -> Response {
        guard let runtime = published.runtime else { throw HTTPError(.serviceUnavailable) }
        return try await runtime.responder.respond(to: request, context: context)
    }
}
