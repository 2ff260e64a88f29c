import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseMessaging
import NIOCore
import NIOHTTP1

/// The durable queue's `webhook` channel: POSTs a queued event to its endpoint, signed the Standard
/// Webhooks way. The endpoint's URL and secret are read at send time (a removed endpoint's deliveries
/// are dead-lettered); the host is resolved and checked again and the connection goes to the address
/// checked (``WebhookAddresses``); redirects are not followed; each attempt has a short timeout. A 2xx
/// answer is delivered; anything else, a timeout or a refused connection is retried by the dispatcher
/// with back-off and the same `webhook-id`, until its attempts run out and it is dead-lettered.
struct WebhookChannel: DeliveryChannel {
    let name = QueuedWebhook.channel
    let transportName = "https"
    let store: any GatehouseStore
    let webhooks: Webhooks
    let addresses: WebhookAddresses
    let upstream: UpstreamHTTPClient
    /// One attempt's limit (connect, send, answer).
    let timeout: TimeInterval

    func open(_ plaintext: Data, id: String) throws -> QueuedDelivery {
        let delivery = try JSONDecoder().decode(QueuedWebhook.self, from: plaintext)
        let webhookID = QueuedWebhook.webhookID(queueID: id)
        return QueuedDelivery(codeLifetime: nil) { date in try await send(delivery, webhookID: webhookID, at: date) }
    }

    func shutdown() async {}

    func send(_ delivery: QueuedWebhook, webhookID: String, at date: Date) async throws {
        guard let endpoint = try await store.read({ try await $0.webhookEndpoint(id: delivery.endpointID) }), endpoint.disabledAt == nil else {
            throw DeliveryError(.permanent, "the webhook endpoint was removed")
        }
        let (_, host) = try Self.permanent { try WebhookURL.validate(endpoint.url) }
        guard let key = WebhookSignature.key(of: try Self.permanent { try webhooks.secret(of: endpoint) }) else {
            throw DeliveryError(.permanent, "the endpoint's secret cannot be read")
        }
        let address: String
        do {
            address = try await addresses.resolveChecked(host: host)
        } catch {
            throw DeliveryError(.transient, "address refused or unresolved: \((error as? GatehouseError)?.message ?? "\(type(of: error))")")
        }
        let body = Array(delivery.body.utf8)
        let timestamp = Int64(date.timeIntervalSince1970.rounded(.down))
        var request = HTTPClientRequest(url: endpoint.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Gatehouse-Webhooks/1")
        request.headers.add(name: "webhook-id", value: webhookID)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(name: "webhook-signature", value: WebhookSignature.sign(id: webhookID, timestamp: timestamp, body: body, key: key))
        request.body = .bytes(ByteBuffer(bytes: body))
        let status: Int
        do {
            status = try await upstream.send(request, pinning: host, to: address, timeout: .milliseconds(Int64(timeout * 1000))).status
        } catch {
            throw DeliveryError(.transient, "\(type(of: error)): \(error)")
        }
        switch status {
        case 200..<300: return
        case 300..<400: throw DeliveryError(.transient, "the receiver answered a redirect, which is not followed", code: status)
        default: throw DeliveryError(.transient, "the receiver answered \(status)", code: status)
        }
    }

    private static func permanent<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw DeliveryError(.permanent, "the endpoint cannot be used: \(type(of: error))") }
    }
}
