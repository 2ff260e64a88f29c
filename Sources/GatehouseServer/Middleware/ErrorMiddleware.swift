import GatehouseCore
import Hummingbird
import Logging

/// Turns every thrown error into the contract's error body (via ``ErrorMapping``), answers 405 with
/// `Allow` for a known path with the wrong method, and logs the cause of 5xx answers.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            var mapped = ErrorMapping.gatehouseError(from: error)
            if mapped.code == .notFound, context.endpointPath == "NotFound" {
                let allowed = routes.methods(for: request.uri.path)
                if !allowed.isEmpty {
                    context.coreContext.endpointPath.value = "MethodNotAllowed"
                    mapped = GatehouseError(.methodNotAllowed, "This path does not accept \(request.method.rawValue).", allowedMethods: allowed.map(\.rawValue))
                } else {
                    mapped = GatehouseError(.notFound, "No such resource.")
                }
            }
            let status = ErrorMapping.status(for: mapped.code)
            if status.code >= 500 {
                context.logger.error("request failed", metadata: ["error.code": .string(mapped.code.rawValue), "error.cause": .string(mapped.cause ?? "-")])
            } else if let cause = mapped.cause {
                context.logger.info("request refused", metadata: ["error.code": .string(mapped.code.rawValue), "error.cause": .string(cause)])
            }
            return ErrorMapping.response(for: mapped, requestID: context.requestID)
        }
    }
}
