import Foundation

/// The webhook endpoints operators registered.
public protocol WebhookRepository: Sendable {
    /// Stores a new endpoint.
    /// - Parameter endpoint: The record.
    /// - Throws: A store error.
    func insertWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws
    /// Every endpoint, live and removed, oldest first.
    /// - Returns: The records.
    /// - Throws: A store error.
    func webhookEndpoints() async throws -> [WebhookEndpointRecord]
    /// The live endpoints subscribed to `event` (read in the transaction of the change, so a removed
    /// endpoint gets nothing more).
    /// - Parameter event: The event.
    /// - Returns: The records.
    /// - Throws: A store error.
    func liveWebhookEndpoints(for event: WebhookEvent) async throws -> [WebhookEndpointRecord]
    /// One endpoint, live or removed.
    /// - Parameter id: Its id.
    /// - Returns: The record, or `nil`.
    /// - Throws: A store error.
    func webhookEndpoint(id: String) async throws -> WebhookEndpointRecord?
    /// Removes (disables) a live endpoint.
    /// - Parameters:
    ///   - id: Its id.
    ///   - at: The removal time.
    /// - Returns: `false` when no live endpoint has the id.
    /// - Throws: A store error.
    func disableWebhookEndpoint(id: String, at: Date) async throws -> Bool
}
