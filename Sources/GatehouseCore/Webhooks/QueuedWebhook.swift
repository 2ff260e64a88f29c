/// A webhook delivery as the durable queue holds it (sealed, on the `webhook` channel): which endpoint,
/// and the exact body. The `webhook-id` is the queue row's id, so every retry carries the same one.
public struct QueuedWebhook: Sendable, Codable, Equatable {
    /// The endpoint's id (its URL and secret are read at send time, so a removed endpoint gets nothing).
    public var endpointID: String
    /// The event (the queue row's `kind`).
    public var event: WebhookEvent
    /// The JSON body, sent byte for byte on every attempt.
    public var body: String

    /// A delivery.
    /// - Parameters:
    ///   - endpointID: The endpoint's id.
    ///   - event: The event.
    ///   - body: The JSON body.
    public init(endpointID: String, event: WebhookEvent, body: String) {
        self.endpointID = endpointID
        self.event = event
        self.body = body
    }

    /// The queue's channel for webhook deliveries.
    public static let channel = "webhook"

    /// The `webhook-id` header of queue row `id`.
    /// - Parameter id: The queue row's id.
    /// - Returns: `msg_<id>`.
    public static func webhookID(queueID id: String) -> String { "msg_" + id }
}
