import Foundation
import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import Hummingbird

/// `/admin/webhooks`: the webhook endpoints, on the same use case as `gatehouse webhooks`.
extension AdminController {
    @Sendable func webhooks(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let endpoints = try await administration.webhooks.endpoints()
        return try Components.Schemas.WebhookEndpointList(endpoints: endpoints.map(Components.Schemas.WebhookEndpoint.init)).response()
    }

    @Sendable func addWebhook(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await body.decode(Operations.AddWebhook.Input.Body.JsonPayload.self, from: request)
        let events = try WebhookEvent.parse(list: body.events)
        let (endpoint, secret) = try await administration.webhooks.add(url: body.url, events: events)
        return try Components.Schemas.NewWebhookEndpoint(value1: .init(endpoint), value2: .init(secret: secret)).response(.created)
    }

    @Sendable func removeWebhook(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), AdminQuery.isIdentifier(id) else {
            throw GatehouseError(.notFound, "No live webhook endpoint has this id.")
        }
        try await administration.webhooks.remove(id: id)
        return JSONResponse.noContent()
    }
}
