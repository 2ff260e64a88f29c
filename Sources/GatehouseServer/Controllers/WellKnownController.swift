import GatehouseCore
import Hummingbird
import NIOCore

/// The published documents: the signing keys (JWKS), the OpenID configuration and the contract.
struct WellKnownController {
    let discovery: DiscoveryDocuments

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.get("/.well-known/jwks.json", use: jwks)
        group.get("/.well-known/openid-configuration", use: openIDConfiguration)
        group.get("/openapi.yaml", use: openAPI)
    }

    @Sendable func jwks(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let jwks = discovery.jwks() else { throw GatehouseError(.notFound, "This deployment's keys are published by its identity provider.") }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "public, max-age=\(discovery.jwksMaxAge)"],
            body: .init(byteBuffer: ByteBuffer(bytes: jwks))
        )
    }

    @Sendable func openIDConfiguration(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        var response = try discovery.openIDConfiguration.response(noStore: false)
        response.headers[.cacheControl] = "public, max-age=\(discovery.jwksMaxAge)"
        return response
    }

    @Sendable func openAPI(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/yaml; charset=utf-8", .cacheControl: "public, max-age=300"],
            body: .init(byteBuffer: ByteBuffer(bytes: discovery.openAPI))
        )
    }
}
