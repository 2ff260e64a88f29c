import GatehouseCore
import Hummingbird
import Logging

/// Turns every thrown error into the contract's error body (via ``ContractFailures``) and logs the
/// cause: 5xx answers as errors, refusals with an internal cause as info.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let failure = ContractFailures.from(error)
            if failure.status.code >= 500 {
                context.logger.error(
                    "request failed",
                    metadata: ["error.code": .string(failure.wireCode), "error.cause": .string(failure.logCause ?? "-")]
                )
            } else if let cause = failure.logCause {
                context.logger.info("request refused", metadata: ["error.code": .string(failure.wireCode), "error.cause": .string(cause)])
            }
            return failure.contractResponse()
        }
    }
}
