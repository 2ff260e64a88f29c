import HTTPTypes
import Hummingbird

/// Answers a known path asked with a method it does not serve: 405 with `Allow`.
struct MethodNotAllowedResponder<Context: RequestContext>: HTTPResponder {
    /// The methods the path serves.
    let allowed: [HTTPRequest.Method]

    func respond(to request: Request, context: Context) async throws -> Response {
        // Metrics count these under one label, not under the path's template.
        context.coreContext.endpointPath.value = "MethodNotAllowed"
        throw TransportError(.methodNotAllowed, "This path does not accept \(request.method.rawValue).", allowedMethods: allowed)
    }
}
