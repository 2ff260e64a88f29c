import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    private static let webhookColumns = "id, url, events, sealed_secret, created_at, disabled_at"

    func insertWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws {
        try await insert(
            """
            INSERT INTO gh_webhook_endpoints (\(unsafeRaw: Self.webhookColumns))
            VALUES (\(bind: endpoint.id), \(bind: endpoint.url), \(bind: endpoint.events.map(\.rawValue).joined(separator: ",")),
                    \(bind: endpoint.sealedSecret), \(bind: endpoint.createdAt.epochSeconds), \(bind: endpoint.disabledAt?.epochSeconds))
            """,
            constraint: "webhook endpoint id"
        )
    }

    func webhookEndpoints() async throws -> [WebhookEndpointRecord] {
        try await all("SELECT \(unsafeRaw: Self.webhookColumns) FROM gh_webhook_endpoints ORDER BY created_at, id").map(Self.decodeWebhookEndpoint)
    }

    func liveWebhookEndpoints(for event: WebhookEvent) async throws -> [WebhookEndpointRecord] {
        // The table holds a handful of rows: the subscription test is done here, not in SQL.
        try await all("SELECT \(unsafeRaw: Self.webhookColumns) FROM gh_webhook_endpoints WHERE disabled_at IS NULL ORDER BY created_at, id")
            .map(Self.decodeWebhookEndpoint).filter { $0.events.contains(event) }
    }

    func webhookEndpoint(id: String) async throws -> WebhookEndpointRecord? {
        try await first("SELECT \(unsafeRaw: Self.webhookColumns) FROM gh_webhook_endpoints WHERE id = \(bind: id)").map(Self.decodeWebhookEndpoint)
    }

    func disableWebhookEndpoint(id: String, at: Date) async throws -> Bool {
        try await first(
            "UPDATE gh_webhook_endpoints SET disabled_at = \(bind: at.epochSeconds) WHERE id = \(bind: id) AND disabled_at IS NULL RETURNING id"
        ) != nil
    }

    static func decodeWebhookEndpoint(_ row: any SQLRow) throws -> WebhookEndpointRecord {
        WebhookEndpointRecord(
            id: try row.string("id"),
            url: try row.string("url"),
            events: try row.string("events").split(separator: ",").compactMap { WebhookEvent(rawValue: String($0)) },
            sealedSecret: try row.string("sealed_secret"),
            createdAt: try row.date("created_at"),
            disabledAt: try row.optionalDate("disabled_at")
        )
    }
}
