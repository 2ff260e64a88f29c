import Hummingbird

/// Counts requests and records their latency by method, route template (never the raw path) and status.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext
    let metrics: GatehouseMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.recordRequest(
            method: request.method.rawValue,
            route: context.endpointPath ?? "unknown",
            status: response.status.code,
            duration: ContinuousClock.now - start
        )
        return response
    }
}
