import GatehouseAPI
import GatehouseCore

/// A webhook endpoint in `/admin/webhooks` (never its secret; the answer to adding one carries it once).
extension Components.Schemas.WebhookEndpoint {
    /// The admin API's view of an endpoint.
    /// - Parameter endpoint: The stored endpoint.
    /// - Throws: `EncodingError` for an event the document does not list (`ContractBodyTests` checks that it lists every one).
    init(_ endpoint: WebhookEndpointRecord) throws {
        let events = try endpoint.events.map { event in
            guard let known = Components.Schemas.WebhookEvent(rawValue: event.rawValue) else {
                throw EncodingError.invalidValue(
                    event.rawValue,
                    .init(codingPath: [], debugDescription: "a webhook event openapi.yaml does not list")
                )
            }
            return known
        }
        self.init(id: endpoint.id, url: endpoint.url, events: events, createdAt: endpoint.createdAt, disabledAt: endpoint.disabledAt)
    }
}
