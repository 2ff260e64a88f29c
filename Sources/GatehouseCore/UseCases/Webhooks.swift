import Foundation

/// What operators do with webhook endpoints: `gatehouse webhooks add|list|remove` and the admin API
/// (`/admin/webhooks`) call the same methods. Adding checks the URL's shape and where its host points
/// (``WebhookAddressPolicy``), seals a new `whsec_…` secret under the master key and returns it once;
/// each change is audited in its own transaction.
public struct Webhooks: Sendable {
    /// The most live endpoints at once (each event is queued once per subscribed endpoint, in the
    /// transaction of the change).
    public static let maximumEndpoints = 20

    let store: any GatehouseStore
    let box: SecretBox
    let addresses: any WebhookAddressPolicy
    let clock: any TimeSource
    let random: any RandomSource

    /// The use case.
    /// - Parameters:
    ///   - store: The endpoints and the audit log.
    ///   - box: Seals the secrets.
    ///   - addresses: Where URLs may point.
    ///   - clock: The time source.
    ///   - random: Ids and secrets.
    public init(store: any GatehouseStore, box: SecretBox, addresses: any WebhookAddressPolicy, clock: any TimeSource, random: any RandomSource) {
        self.store = store
        self.box = box
        self.addresses = addresses
        self.clock = clock
        self.random = random
    }

    /// Registers an endpoint.
    /// - Parameters:
    ///   - url: The receiver's URL.
    ///   - events: What it subscribes to (at least one).
    /// - Returns: The record and its `whsec_…` secret, to be shown once.
    /// - Throws: `invalid_request` for a bad URL, a refused address, no events, or too many endpoints.
    public func add(url: String, events: [WebhookEvent]) async throws -> (endpoint: WebhookEndpointRecord, secret: String) {
        let (_, host) = try WebhookURL.validate(url)
        guard !events.isEmpty else { throw GatehouseError.invalidRequest("Subscribe the endpoint to at least one event.") }
        try await addresses.check(host: host)
        let now = clock.now()
        let origin = AuditOrigin.current
        let id = random.uuidV7(at: now)
        let secret = WebhookSignature.generateSecret(random)
        let sealed = try box.seal(Array(secret.utf8), context: WebhookEndpointRecord.sealingContext(id))
        let endpoint = WebhookEndpointRecord(id: id, url: url, events: events, sealedSecret: sealed, createdAt: now)
        let added = try await store.write { tx in
            guard try await tx.webhookEndpoints().filter({ $0.disabledAt == nil }).count < Self.maximumEndpoints else { return false }
            try await tx.insertWebhookEndpoint(endpoint)
            try await tx.appendAudit(.make(.webhookAdded, userID: nil, detail: id, origin: origin, at: now, random: random))
            return true
        }
        guard added else {
            throw GatehouseError.invalidRequest("At most \(Self.maximumEndpoints) webhook endpoints may be live; remove one first.")
        }
        return (endpoint, secret)
    }

    /// Every endpoint, live and removed (never a secret).
    /// - Returns: The records.
    /// - Throws: A store error.
    public func endpoints() async throws -> [WebhookEndpointRecord] {
        try await store.read { try await $0.webhookEndpoints() }
    }

    /// Removes a live endpoint: nothing more is queued for it, and what is queued is dead-lettered.
    /// - Parameter id: Its id.
    /// - Throws: `not_found` when no live endpoint has the id.
    public func remove(id: String) async throws {
        let now = clock.now()
        let origin = AuditOrigin.current
        let removed = try await store.write { tx in
            guard try await tx.disableWebhookEndpoint(id: id, at: now) else { return false }
            try await tx.appendAudit(.make(.webhookRemoved, userID: nil, detail: id, origin: origin, at: now, random: random))
            return true
        }
        guard removed else { throw GatehouseError(.notFound, "No live webhook endpoint has this id.") }
    }

    /// The secret of an endpoint, opened (for the delivery channel).
    /// - Parameter endpoint: The record.
    /// - Returns: The `whsec_…` secret.
    /// - Throws: When it cannot be opened (another master key).
    public func secret(of endpoint: WebhookEndpointRecord) throws -> String {
        String(decoding: try box.open(endpoint.sealedSecret, context: WebhookEndpointRecord.sealingContext(endpoint.id)), as: UTF8.self)
    }
}
