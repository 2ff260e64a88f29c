import GatehouseCore
import Hummingbird
import NIOCore

/// What operators and orchestrators ask: liveness, readiness and Prometheus metrics.
struct OperationsController {
    let provider: any IdentityProvider
    let metrics: GatehouseMetrics

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.get("/health", use: health)
        group.get("/ready", use: ready)
        group.get("/metrics", use: prometheus)
    }

    @Sendable func health(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try StatusResponse(status: "ok").response(noStore: false)
    }

    @Sendable func ready(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        do {
            try await provider.checkReady()
        } catch {
            throw GatehouseError.unavailable(cause: "readiness: \(error)")
        }
        return try StatusResponse(status: "ready").response(noStore: false)
    }

    @Sendable func prometheus(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: metrics.render())))
    }
}
