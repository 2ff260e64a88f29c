import GatehouseAPI
import GatehouseCore
import Hummingbird
import NIOCore

/// What operators and orchestrators ask: liveness, readiness and Prometheus metrics.
struct OperationsController {
    let sessions: Sessions
    let metrics: GatehouseMetrics
    /// The liveness and readiness bodies never change: encoded once (`/health` is the baseline the
    /// benchmarks divide by, so it stays as cheap as it was).
    let healthBody = (try? Components.Schemas.Health(status: .ok).jsonBytes()) ?? []
    let readyBody = (try? Components.Schemas.Readiness(status: .ready).jsonBytes()) ?? []

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.get("/health", use: health)
        group.get("/ready", use: ready)
        group.get("/metrics", use: prometheus)
    }

    @Sendable func health(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        JSONResponse.make(.ok, body: healthBody, noStore: false)
    }

    @Sendable func ready(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        do {
            try await sessions.checkReady()
        } catch {
            throw GatehouseError.unavailable(cause: "readiness: \(error)")
        }
        return JSONResponse.make(.ok, body: readyBody, noStore: false)
    }

    @Sendable func prometheus(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: metrics.render()))
        )
    }
}
