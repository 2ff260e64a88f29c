import Foundation
import GatehouseCore
import Hummingbird
import NIOCore

/// Discovery and operations: JWKS, OpenID configuration, health, readiness, metrics, OpenAPI.
enum OperationsRoutes {
    static func register(on routes: RouteRegistry, _ d: RouteDependencies) {
        routes.on(.get, "/.well-known/jwks.json") { _, _ in
            guard let jwks = d.discovery.jwks() else { throw GatehouseError(.notFound, "This deployment's keys are published by its identity provider.") }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "public, max-age=\(d.discovery.jwksMaxAge)"],
                body: .init(byteBuffer: ByteBuffer(bytes: jwks)))
        }
        routes.on(.get, "/.well-known/openid-configuration") { _, _ in
            var response = JSONResponse.make(.ok, d.discovery.openIDConfiguration, noStore: false)
            response.headers[.cacheControl] = "public, max-age=\(d.discovery.jwksMaxAge)"
            return response
        }
        routes.on(.get, "/health") { _, _ in
            JSONResponse.make(.ok, ["status": "ok"], noStore: false)
        }
        routes.on(.get, "/ready") { _, _ in
            do {
                try await d.sessions.checkReady()
            } catch {
                throw GatehouseError.unavailable(cause: "readiness: \(error)")
            }
            return JSONResponse.make(.ok, ["status": "ready"], noStore: false)
        }
        routes.on(.get, "/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: d.metrics.render())))
        }
        routes.on(.get, "/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8", .cacheControl: "public, max-age=300"],
                body: .init(byteBuffer: ByteBuffer(bytes: d.discovery.openAPI)))
        }
    }
}
