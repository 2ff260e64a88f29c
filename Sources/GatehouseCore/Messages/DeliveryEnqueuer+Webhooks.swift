import Foundation

extension DeliveryEnqueuer {
    /// Appends `entry` to the audit log and queues its webhook deliveries, both in `tx`: a receiver hears
    /// of a change exactly when it committed. Every audited change of the pool and every session start
    /// goes through here.
    /// - Parameters:
    ///   - entry: The audit row.
    ///   - email: The user's address, for the events that carry it.
    ///   - tx: The transaction of the change.
    /// - Throws: The store's error (which rolls the change back).
    package func audit(_ entry: AuditEntry, email: String? = nil, in tx: any StoreTransaction) async throws {
        try await tx.appendAudit(entry)
        try await enqueueWebhooks(for: entry, email: email, in: tx)
    }

    /// Queues, in `tx`, one delivery of `entry`'s webhook event to each live endpoint subscribed to it
    /// (nothing when the audit event has no webhook face or nobody subscribes), and wakes the delivery
    /// service (a wake-up before the commit is caught by the service's short delay or its next poll).
    /// - Parameters:
    ///   - entry: The audit row written in `tx`.
    ///   - email: The user's address, when the event concerns it.
    ///   - tx: The transaction of the change.
    /// - Throws: The store's error (which rolls the change back: no change without its webhooks).
    package func enqueueWebhooks(for entry: AuditEntry, email: String? = nil, in tx: any StoreTransaction) async throws {
        guard let event = WebhookEvent(audit: entry.event) else { return }
        let endpoints = try await tx.liveWebhookEndpoints(for: event)
        guard !endpoints.isEmpty else { return }
        let body = String(decoding: try WebhookPayload(event: event, entry: entry, email: email).encoded(), as: UTF8.self)
        for endpoint in endpoints {
            let delivery = QueuedWebhook(endpointID: endpoint.id, event: event, body: body)
            try await insert(
                channel: QueuedWebhook.channel,
                kind: event.rawValue,
                json: try JSONEncoder().encode(delivery),
                decoy: false,
                now: entry.at,
                in: tx
            )
        }
        wakeUp.signal()
    }
}
